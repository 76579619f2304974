/**
 * The signing keys an OpenID Connect provider publishes, found from its pinned issuer: the
 * discovery document at `<issuer>/.well-known/openid-configuration` names `jwks_uri`, and must
 * name the same issuer (OpenID Connect Discovery 1.0, section 4.3) so that a document served
 * elsewhere cannot redirect trust. Fetched on the first token, not at start-up, so that a
 * provider that is down does not stop the service; a failed fetch is retried after a pause.
 */
import * as jose from 'jose';
import { isSecureOrLoopbackUrl } from '../common/index.js';

const DISCOVERY_TIMEOUT_MS = 5000;
const RETRY_AFTER_FAILURE_MS = 30_000;

/** The provider's keys could not be found (it is down, or its document is wrong). */
export class DiscoveryError extends Error {}


/** A key resolver that discovers the provider's JWKS once, then serves from jose's key cache. */
export function discoveredKeyResolver(issuer: string, remoteOptions: jose.RemoteJWKSetOptions): jose.JWTVerifyGetKey {
  let keys: jose.JWTVerifyGetKey | undefined;
  let failure: { at: number; error: DiscoveryError } | undefined;
  let pending: Promise<jose.JWTVerifyGetKey> | undefined;

  const resolve = async (): Promise<jose.JWTVerifyGetKey> => {
    if (keys !== undefined) return keys;
    if (failure !== undefined && Date.now() - failure.at < RETRY_AFTER_FAILURE_MS) throw failure.error;
    pending ??= discoverJwksUri(issuer)
      .then((uri) => {
        keys = jose.createRemoteJWKSet(uri, remoteOptions);
        failure = undefined;
        return keys;
      })
      .catch((err: unknown) => {
        const error = err instanceof DiscoveryError ? err : new DiscoveryError(String(err));
        failure = { at: Date.now(), error };
        throw error;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  // jose calls this with the token's header; the discovered set then picks the key by kid
  return async (header, token) => (await resolve())(header, token);
}

/** Fetches the discovery document of `issuer` and returns its checked `jwks_uri`. */
export async function discoverJwksUri(issuer: string): Promise<URL> {
  const documentUrl = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let document: unknown;
  try {
    const res = await fetch(documentUrl, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), redirect: 'error' });
    if (!res.ok) throw new DiscoveryError(`discovery document ${documentUrl} answered HTTP ${res.status}`);
    document = await res.json();
  } catch (err) {
    if (err instanceof DiscoveryError) throw err;
    throw new DiscoveryError(`could not fetch the discovery document ${documentUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof document !== 'object' || document === null) throw new DiscoveryError(`discovery document ${documentUrl} is not a JSON object`);
  const { issuer: named, jwks_uri: jwksUri } = document as { issuer?: unknown; jwks_uri?: unknown };
  if (named !== issuer) {
    throw new DiscoveryError(`discovery document ${documentUrl} names the issuer ${JSON.stringify(named)}, not the pinned ${JSON.stringify(issuer)}`);
  }
  if (typeof jwksUri !== 'string') throw new DiscoveryError(`discovery document ${documentUrl} has no [jwks_uri]`);
  let uri: URL;
  try {
    uri = new URL(jwksUri);
  } catch {
    throw new DiscoveryError(`[jwks_uri] of ${documentUrl} is not a URL`);
  }
  if (!isSecureOrLoopbackUrl(uri)) {
    throw new DiscoveryError(`[jwks_uri] of ${documentUrl} is not an https URL`);
  }
  return uri;
}
