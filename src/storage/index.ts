/**
 * The object store: one interface (put, get, ranged get, download to file, head, list, delete)
 * over a local directory, Azure Blob Storage (SAS URL) and S3-compatible stores, plus stackable
 * wrappers for retries and metrics. `openObjectStore` builds one from a setting value; the Azure
 * and S3 stores (and their client libraries) load on first use, from their own modules.
 */
export type { ListedObject, ObjectMeta, ObjectStore, ObjectStoreOp, PutBody, VerifyOptions } from './object-store.js';
export { ObjectNotFoundError } from '../common/errors.js';
export { ObjectRangeError, ObjectStoreConfigError, ObjectStoreRequestError, isTransientError } from './errors.js';
export { checkKey, checkPrefix } from './keys.js';
export { LocalObjectStore } from './local-object-store.js';
export type { AzureBlobObjectStoreOptions } from './azure-object-store.js';
export { parseAzureSasUrl, redactUrl, type AzureSasLocation } from './azure-sas.js';
export type { S3Credentials, S3ObjectStoreOptions } from './s3-object-store.js';
export { RetryingObjectStore } from './retrying-object-store.js';
export { backoffDelayMs, DEFAULT_RETRY_POLICY, withRetries, type RetryListener, type RetryPolicy } from './retry.js';
export { MetricsObjectStore, objectMetricsHooks, type ObjectStoreHooks } from './metrics-object-store.js';
export {
  openObjectStore,
  parseObjectStoreSpec,
  type ObjectStoreLocation,
  type OpenObjectStoreOptions,
  type S3Location,
} from './open-object-store.js';
