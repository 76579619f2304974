/**
 * JWT validation for users of an external identity provider (jose). The signing key comes from
 * exactly one source: a JWKS URL, a JWKS file, a PEM public key file, (only when allowed by
 * configuration) an HS256 shared secret, or the keys the provider publishes, discovered from its
 * pinned issuer. With no source known every token is refused. Checked: signature with an
 * allowed algorithm (never `none`), `aud`, `exp` (required), `nbf`, `iss` when configured or
 * pinned, `sub` (required), with a clock tolerance of 30 seconds. The provider's role names come
 * from one claim.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import * as jose from 'jose';
import type { JwtConfig, JwtKeySource } from '../config/index.js';
import { DiscoveryError, discoveredKeyResolver } from './oidc-discovery.js';

export const JWT_CLOCK_TOLERANCE_SECONDS = 30;

export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

export interface JwtIdentity {
  subject: string;
  /** role names as the identity provider writes them */
  providerRoles: string[];
}

/** A token that does not validate; `reason` is safe to show the caller. */
export class JwtRejectedError extends Error {}

/** The key source could not be reached (e.g. the JWKS URL is down): not the caller's fault. */
export class JwtKeySourceError extends Error {}

export interface JwtVerifier {
  verify(token: string): Promise<JwtIdentity>;
}

type KeyInput = Parameters<typeof jose.jwtVerify>[1];

export function createJwtVerifier(config: JwtConfig): JwtVerifier {
  const source = config.keySource;
  if (source.kind === 'none') {
    const reason = `tokens from an identity provider cannot be verified: ${source.hint}`;
    return {
      verify: async () => {
        throw new JwtRejectedError(reason);
      },
    };
  }
  const { key, algorithms } = keySource(source);
  const options: jose.JWTVerifyOptions = {
    audience: config.audience,
    algorithms,
    clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
    requiredClaims: ['exp', 'sub'],
  };
  if (config.issuers.length > 0) options.issuer = config.issuers;
  return {
    async verify(token: string): Promise<JwtIdentity> {
      let payload: jose.JWTPayload;
      try {
        // narrowed so that each call picks its jose overload (key or key resolver)
        const result = typeof key === 'function' ? await jose.jwtVerify(token, key, options) : await jose.jwtVerify(token, key, options);
        payload = result.payload;
      } catch (err) {
        throw classify(err);
      }
      const subject = payload.sub;
      if (typeof subject !== 'string' || subject === '') throw new JwtRejectedError('token has no [sub] claim');
      return { subject, providerRoles: rolesFromClaims(payload, config.rolesClaim) };
    },
  };
}

const REMOTE_JWKS_OPTIONS: jose.RemoteJWKSetOptions = { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 };

function keySource(source: Exclude<JwtKeySource, { kind: 'none' }>): { key: KeyInput | jose.JWTVerifyGetKey; algorithms: string[] } {
  switch (source.kind) {
    case 'jwks_url':
      return { key: jose.createRemoteJWKSet(new URL(source.url), REMOTE_JWKS_OPTIONS), algorithms: [...ASYMMETRIC_ALGORITHMS] };
    case 'oidc_discovery':
      return { key: discoveredKeyResolver(source.issuer, REMOTE_JWKS_OPTIONS), algorithms: [...ASYMMETRIC_ALGORITHMS] };
    case 'jwks_file': {
      const jwks = JSON.parse(fs.readFileSync(source.path, 'utf8')) as jose.JSONWebKeySet;
      return { key: jose.createLocalJWKSet(jwks), algorithms: [...ASYMMETRIC_ALGORITHMS] };
    }
    case 'public_key_file': {
      const keyObject = crypto.createPublicKey(fs.readFileSync(source.path));
      return { key: keyObject, algorithms: algorithmsForKey(keyObject) };
    }
    case 'hs256_secret':
      return { key: new TextEncoder().encode(source.secret), algorithms: ['HS256'] };
  }
}

/** The signature algorithms a PEM public key can verify, from its type and curve. */
export function algorithmsForKey(key: crypto.KeyObject): string[] {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
    case 'rsa-pss':
      return ['PS256', 'PS384', 'PS512'];
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === 'prime256v1' || curve === 'P-256') return ['ES256'];
      if (curve === 'secp384r1' || curve === 'P-384') return ['ES384'];
      if (curve === 'secp521r1' || curve === 'P-521') return ['ES512'];
      throw new Error(`unsupported elliptic curve [${String(curve)}] in the JWT public key file`);
    }
    case 'ed25519':
      return ['EdDSA', 'Ed25519'];
    default:
      throw new Error(`unsupported key type [${String(key.asymmetricKeyType)}] in the JWT public key file`);
  }
}

function classify(err: unknown): Error {
  if (err instanceof jose.errors.JWTExpired) return new JwtRejectedError('token has expired');
  if (err instanceof jose.errors.JWTClaimValidationFailed) return new JwtRejectedError(`token claim [${err.claim}] is not valid: ${err.reason}`);
  if (err instanceof jose.errors.JWKSTimeout) return new JwtKeySourceError('timed out fetching the JWKS');
  if (err instanceof DiscoveryError) return new JwtKeySourceError(`the identity provider's signing keys could not be found: ${err.message}`);
  if (err instanceof jose.errors.JWKSNoMatchingKey) return new JwtRejectedError('no key of the JWKS matches the token');
  if (err instanceof jose.errors.JWKSMultipleMatchingKeys) return new JwtRejectedError('token signature is not valid');
  if (err instanceof jose.errors.JWSSignatureVerificationFailed) return new JwtRejectedError('token signature is not valid');
  if (err instanceof jose.errors.JOSEAlgNotAllowed) return new JwtRejectedError('token signature algorithm is not allowed');
  if (err instanceof jose.errors.JOSEError) return new JwtRejectedError('token is not valid');
  return new JwtKeySourceError(`could not check the token: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * The provider role names in `claim`: an array of strings, or one string of names separated by
 * spaces or commas. A dotted claim name that is not a top-level claim is read as a path into
 * nested objects (e.g. `realm_access.roles`).
 */
export function rolesFromClaims(payload: Record<string, unknown>, claim: string): string[] {
  let value: unknown = payload[claim];
  if (value === undefined && claim.includes('.')) {
    value = payload;
    for (const part of claim.split('.')) {
      value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[part] : undefined;
    }
  }
  let names: string[] = [];
  if (typeof value === 'string') names = value.split(/[\s,]+/);
  else if (Array.isArray(value)) names = value.filter((v): v is string => typeof v === 'string');
  return [...new Set(names.filter((n) => n !== ''))];
}
