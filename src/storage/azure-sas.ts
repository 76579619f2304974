/**
 * Reads an Azure Blob container SAS URL, as an operator pastes it, into the container URL the SDK
 * needs, a key prefix and a form safe to log; and refuses, before any request, a URL that cannot
 * work: malformed, not a SAS (no `sv` or `sig`), expired (`se` in the past), or lacking the
 * read, write, delete and list permissions (`sp`).
 */
import { ObjectStoreConfigError } from './errors.js';
import { normalizeStorePrefix } from './keys.js';

export interface AzureSasLocation {
  /** origin, account (path-style hosts only) and container, with the SAS query: a secret */
  containerUrl: string;
  /** the same without the query, for logs and messages */
  redactedUri: string;
  container: string;
  /** "" or "a/b/": prepended to every key */
  prefix: string;
  /** when the SAS expires (`se`), if it says */
  expiresAtMs?: number;
}

/** ports the Azure SDK and emulators treat as path-style ("/<account>/<container>") */
const PATH_STYLE_PORTS = new Set([
  '10000', '10001', '10002', '10003', '10004', '10100', '10101', '10102', '10103', '10104', '11000', '11001', '11002', '11003', '11004',
  '11100', '11101', '11102', '11103', '11104',
]);

const CONTAINER_NAME = /^(?:\$root|[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62})$/;

/** Permissions the service needs: read, write, delete and list. */
const REQUIRED_PERMISSIONS = ['r', 'w', 'd', 'l'] as const;

/** The URL with everything after `?` cut off: what messages may show of a string that might hold a SAS. */
export function redactUrl(raw: string): string {
  const q = raw.indexOf('?');
  return q < 0 ? raw : `${raw.slice(0, q)}?<sas redacted>`;
}

/**
 * Whether a host addresses the account in the path (Azurite, IP addresses, localhost), as the SDK
 * decides it, rather than in the host name (`<account>.blob.core.windows.net`).
 */
export function isPathStyleHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host.includes(':')) return true;
  if (host === 'localhost' || host === 'host.docker.internal') return true;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return true;
  return url.port !== '' && PATH_STYLE_PORTS.has(url.port);
}

export function parseAzureSasUrl(raw: string, nowMs: number = Date.now()): AzureSasLocation {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ObjectStoreConfigError(`object store url [${redactUrl(raw)}] is not a valid url`);
  }
  const redactedUri = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  const shown = `[${redactedUri}]`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ObjectStoreConfigError(`azure object store url ${shown} must use https (or http for a local emulator)`);
  }
  if (url.username || url.password) throw new ObjectStoreConfigError(`azure object store url ${shown} must not hold a user name or password`);
  if (url.hash) throw new ObjectStoreConfigError(`azure object store url ${shown} must not have a #fragment`);

  const params = url.searchParams;
  const missing = ['sv', 'sig'].filter((name) => !params.get(name));
  if (missing.length > 0) {
    throw new ObjectStoreConfigError(`azure object store url ${shown} is not a SAS url: it lacks ${missing.map((m) => `"${m}"`).join(' and ')}`);
  }
  let expiresAtMs: number | undefined;
  const se = params.get('se');
  if (se !== null) {
    expiresAtMs = Date.parse(se);
    if (Number.isNaN(expiresAtMs)) throw new ObjectStoreConfigError(`azure object store SAS of ${shown} has an unreadable expiry "se=${se}"`);
    if (expiresAtMs <= nowMs) throw new ObjectStoreConfigError(`azure object store SAS of ${shown} expired at ${new Date(expiresAtMs).toISOString()}`);
  }
  const sp = params.get('sp');
  if (sp !== null) {
    const lacking = REQUIRED_PERMISSIONS.filter((p) => !sp.includes(p));
    if (lacking.length > 0) {
      throw new ObjectStoreConfigError(
        `azure object store SAS of ${shown} grants "sp=${sp}" but the service needs read, write, delete and list (missing: ${lacking.join('')})`,
      );
    }
  }

  const segments = url.pathname.split('/').filter((s) => s !== '');
  let decoded: string[];
  try {
    decoded = segments.map((s) => decodeURIComponent(s));
  } catch {
    throw new ObjectStoreConfigError(`azure object store url ${shown} has a malformed percent-encoded path`);
  }
  const pathStyle = isPathStyleHost(url);
  const accountSegments = pathStyle ? 1 : 0;
  if (decoded.length <= accountSegments) {
    const form = pathStyle ? 'http://<host>:<port>/<account>/<container>?<sas>' : 'https://<account>.blob.core.windows.net/<container>?<sas>';
    throw new ObjectStoreConfigError(`azure object store url ${shown} names no container; expected ${form}`);
  }
  const container = decoded[accountSegments];
  if (!CONTAINER_NAME.test(container)) {
    throw new ObjectStoreConfigError(
      `azure object store url ${shown}: [${container}] is not a valid container name (3-63 lowercase letters, digits and single hyphens)`,
    );
  }
  let prefix: string;
  try {
    prefix = normalizeStorePrefix(decoded.slice(accountSegments + 1).join('/'));
  } catch (err) {
    throw new ObjectStoreConfigError(`azure object store url ${shown} has an invalid key prefix: ${(err as Error).message}`);
  }
  const containerPath = segments.slice(0, accountSegments + 1).join('/');
  return {
    containerUrl: `${url.origin}/${containerPath}${url.search}`,
    redactedUri,
    container,
    prefix,
    ...(expiresAtMs !== undefined ? { expiresAtMs } : {}),
  };
}
