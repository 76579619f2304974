/**
 * One setting value names the object store; this reads it, refuses what cannot work before any
 * request is made, and builds the backend inside its wrappers (metrics outside retries, so that
 * a metric counts an operation once, however many attempts it took).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AzureBlobObjectStoreOptions } from './azure-object-store.js';
import { parseAzureSasUrl, redactUrl } from './azure-sas.js';
import { ObjectStoreConfigError } from './errors.js';
import { normalizeStorePrefix, s3StoreUri } from './keys.js';
import { LocalObjectStore } from './local-object-store.js';
import { MetricsObjectStore, type ObjectStoreHooks } from './metrics-object-store.js';
import type { ObjectStore } from './object-store.js';
import { checkRetryPolicy, DEFAULT_RETRY_POLICY, type RetryListener, type RetryPolicy } from './retry.js';
import { RetryingObjectStore } from './retrying-object-store.js';
import type { S3Credentials, S3ObjectStoreOptions } from './s3-object-store.js';
import { LazyObjectStore } from './lazy-object-store.js';

export interface S3Location {
  kind: 's3';
  bucket: string;
  prefix: string;
  region?: string;
  endpoint?: string;
  forcePathStyle?: boolean;
}

export type ObjectStoreLocation =
  | { kind: 'local'; path: string }
  /** `sasUrl` holds the SAS signature: never log it */
  | { kind: 'azure'; sasUrl: string }
  | S3Location;

export interface OpenObjectStoreOptions {
  /** the data directory: an empty setting means the data directory itself */
  dataDir?: string;
  /** explicit S3 credentials; without them the AWS SDK's default chain applies */
  s3Credentials?: S3Credentials;
  /** retries of whole operations and of upload parts; `false` for none; default DEFAULT_RETRY_POLICY */
  retry?: RetryPolicy | false;
  onRetry?: RetryListener;
  /** per-operation reports, e.g. objectMetricsHooks(metrics) */
  hooks?: ObjectStoreHooks;
  /** upload tuning of the cloud backends (sizes, concurrency, timeouts) */
  tuning?: Pick<S3ObjectStoreOptions, 'multipartThresholdBytes' | 'partSizeBytes' | 'uploadConcurrency' | 'requestTimeoutMs'> &
    Pick<AzureBlobObjectStoreOptions, 'singleShotBytes' | 'blockSizeBytes'>;
  /** "now" for the SAS expiry check; tests only */
  nowMs?: number;
}

const S3_PARAMS = new Set(['region', 'endpoint', 'force_path_style']);
const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/**
 * Reads a setting value:
 * - empty: the data directory itself (segment files are written in place); `file:///abs/path` or a plain path: a local directory
 * - `azure+https://<account>.blob.core.windows.net/<container>[/prefix]?<sas>`, the same without
 *   `azure+` for `*.blob.core.*` hosts or any URL carrying a SAS (`sv` and `sig`), and
 *   `azure+http://127.0.0.1:10000/<account>/<container>?<sas>` for an emulator: Azure Blob
 * - `s3://<bucket>[/prefix][?region=…&endpoint=…&force_path_style=true]`: S3 or S3-compatible
 */
export function parseObjectStoreSpec(spec: string, options: { dataDir?: string; nowMs?: number } = {}): ObjectStoreLocation {
  const value = spec.trim();
  if (value === '') {
    if (options.dataDir === undefined) throw new ObjectStoreConfigError('object store setting is empty and no data directory is known');
    return { kind: 'local', path: resolve(options.dataDir) };
  }
  if (value.startsWith('azure+')) return azure(value.slice('azure+'.length), options.nowMs);
  if (value.startsWith('file:')) return { kind: 'local', path: localPath(value) };
  if (value.startsWith('s3://')) return s3(value);
  if (/^https?:\/\//i.test(value)) {
    if (looksLikeAzure(value)) return azure(value, options.nowMs);
    throw new ObjectStoreConfigError(
      `object store url [${redactUrl(value)}] is neither an Azure SAS url nor an s3:// url; for an S3-compatible endpoint write s3://<bucket>?endpoint=${redactUrl(value)}`,
    );
  }
  if (SCHEME.test(value)) {
    throw new ObjectStoreConfigError(`object store [${redactUrl(value)}]: unknown scheme; use a path, file://, azure+https://, https://…blob.core.windows.net or s3://`);
  }
  return { kind: 'local', path: resolve(value) };
}

/** Builds the store a setting value names, inside the retry and metrics wrappers. Call verify() before use. */
export function openObjectStore(spec: string, options: OpenObjectStoreOptions = {}): ObjectStore {
  const location = parseObjectStoreSpec(spec, options);
  const retry = options.retry === false ? { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 } : checkRetryPolicy({ ...(options.retry ?? DEFAULT_RETRY_POLICY) });
  const onRetry = options.onRetry ? { onRetry: options.onRetry } : {};
  const tuning = options.tuning ?? {};
  let store: ObjectStore;
  switch (location.kind) {
    case 'local':
      store = new LocalObjectStore(location.path);
      break;
    case 'azure': {
      const azureOptions: AzureBlobObjectStoreOptions = { ...tuning, partRetry: retry, ...onRetry };
      store = new LazyObjectStore(parseAzureSasUrl(location.sasUrl).redactedUri, async () => {
        const { AzureBlobObjectStore } = await import('./azure-object-store.js');
        return new AzureBlobObjectStore(location.sasUrl, azureOptions);
      });
      break;
    }
    case 's3': {
      const s3Options: S3ObjectStoreOptions = {
        ...tuning,
        bucket: location.bucket,
        prefix: location.prefix,
        ...(location.region !== undefined ? { region: location.region } : {}),
        ...(location.endpoint !== undefined ? { endpoint: location.endpoint } : {}),
        ...(location.forcePathStyle !== undefined ? { forcePathStyle: location.forcePathStyle } : {}),
        ...(options.s3Credentials ? { credentials: options.s3Credentials } : {}),
        partRetry: retry,
        ...onRetry,
      };
      store = new LazyObjectStore(s3StoreUri(s3Options.bucket, s3Options.prefix ?? '', s3Options.endpoint), async () => {
        const { S3ObjectStore } = await import('./s3-object-store.js');
        return new S3ObjectStore(s3Options);
      });
      break;
    }
  }
  if (retry.maxAttempts > 1) store = new RetryingObjectStore(store, retry, options.onRetry);
  if (options.hooks) store = new MetricsObjectStore(store, options.hooks);
  return store;
}

function looksLikeAzure(value: string): boolean {
  try {
    const url = new URL(value);
    return /\.blob\.core\./i.test(url.hostname) || (url.searchParams.has('sig') && url.searchParams.has('sv'));
  } catch {
    return false;
  }
}

function azure(url: string, nowMs: number | undefined): ObjectStoreLocation {
  // checked here, so that a bad SAS stops start-up before any store is built
  parseAzureSasUrl(url, nowMs);
  return { kind: 'azure', sasUrl: url };
}

function localPath(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ObjectStoreConfigError(`object store [${value}] is not a valid file url`);
  }
  if (url.host !== '' && url.host !== 'localhost') {
    throw new ObjectStoreConfigError(`object store [${value}]: a file url names a local path, file:///abs/path, not a host`);
  }
  if (url.search || url.hash) throw new ObjectStoreConfigError(`object store [${value}]: a file url takes no query or fragment`);
  return fileURLToPath(url);
}

function s3(value: string): ObjectStoreLocation {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ObjectStoreConfigError(`object store [${redactUrl(value)}] is not a valid s3 url`);
  }
  const shown = `[s3://${url.host}${url.pathname}]`;
  if (url.username || url.password) {
    throw new ObjectStoreConfigError(`object store ${shown}: credentials do not belong in the url; use the AWS environment or configuration`);
  }
  if (url.port) throw new ObjectStoreConfigError(`object store ${shown}: a port belongs in the endpoint parameter, not the bucket`);
  const bucket = url.hostname;
  if (!S3_BUCKET.test(bucket)) {
    throw new ObjectStoreConfigError(`object store ${shown}: [${bucket}] is not a valid bucket name (3-63 lowercase letters, digits, dots and hyphens)`);
  }
  let prefix: string;
  try {
    prefix = normalizeStorePrefix(decodeURIComponent(url.pathname));
  } catch (err) {
    throw new ObjectStoreConfigError(`object store ${shown} has an invalid key prefix: ${(err as Error).message}`);
  }
  const location: S3Location = { kind: 's3', bucket, prefix };
  for (const [name, param] of url.searchParams) {
    if (!S3_PARAMS.has(name)) {
      throw new ObjectStoreConfigError(`object store ${shown}: unknown parameter "${name}" (known: ${[...S3_PARAMS].join(', ')})`);
    }
    if (name === 'region') {
      if (!/^[a-z0-9-]{1,64}$/.test(param)) throw new ObjectStoreConfigError(`object store ${shown}: [${param}] is not a region`);
      location.region = param;
    } else if (name === 'endpoint') {
      location.endpoint = endpoint(param, shown);
    } else if (name === 'force_path_style') {
      if (!['true', 'false', '1', '0'].includes(param)) {
        throw new ObjectStoreConfigError(`object store ${shown}: force_path_style must be true or false, got [${param}]`);
      }
      location.forcePathStyle = param === 'true' || param === '1';
    }
  }
  return location;
}

function endpoint(value: string, shown: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ObjectStoreConfigError(`object store ${shown}: endpoint [${redactUrl(value)}] is not a valid url`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ObjectStoreConfigError(`object store ${shown}: endpoint must be an http or https url`);
  if (url.username || url.password || url.search) {
    throw new ObjectStoreConfigError(`object store ${shown}: endpoint must be a plain http(s)://host[:port] url without credentials or query`);
  }
  return value.replace(/\/+$/, '');
}
