/**
 * Errors of the object store besides ObjectNotFoundError (src/common/errors.ts), and the one rule
 * that says which failures are worth retrying.
 */
import { SvcError } from '../common/errors.js';

/**
 * The object-store setting is malformed, or the store it names cannot be used (bad or expired SAS,
 * wrong credentials, no such container or bucket). Raised at start-up so the node exits with the
 * message; it never contains a secret.
 */
export class ObjectStoreConfigError extends SvcError {
  constructor(reason: string) {
    super('settings_exception', 500, reason);
  }
}

/** A ranged read outside the object's bytes. */
export class ObjectRangeError extends SvcError {
  constructor(
    readonly key: string,
    readonly offset: number,
    readonly length: number,
    readonly sizeBytes: number | undefined,
  ) {
    const size = sizeBytes === undefined ? '' : ` of ${sizeBytes} bytes`;
    super('storage_exception', 500, `range [${offset}, ${offset + length}) is outside object [${key}]${size}`, {
      'resource.id': key,
    });
  }
}

/**
 * A request to the store failed. `transient` failures (network errors, timeouts, 5xx, 429 and
 * throttling) may succeed when retried; the others (403, 400, ...) will not.
 */
export class ObjectStoreRequestError extends SvcError {
  constructor(
    readonly op: string,
    readonly key: string,
    reason: string,
    readonly transient: boolean,
    /** HTTP status the store answered, when it answered */
    readonly httpStatus: number | undefined,
    options: { cause?: unknown } = {},
  ) {
    super(transient ? 'service_unavailable_exception' : 'storage_exception', transient ? 503 : 500, `object store ${op} [${key}] failed: ${reason}`);
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

/** errno codes of failures that pass: the peer went away, the network blinked, a limit was hit for a moment */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'EMFILE',
  'ENFILE',
  'EAGAIN',
  'EBUSY',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'REQUEST_SEND_ERROR',
]);

/** error names the SDKs give to timeouts and throttling */
const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'ServerBusy',
  'OperationTimedOut',
  'InternalError',
  'ServiceUnavailable',
]);

export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Whether retrying the operation that threw `err` may help; 404, 403, 400 and the like never do. */
export function isTransientError(err: unknown): boolean {
  if (err instanceof ObjectStoreRequestError) return err.transient;
  if (err instanceof SvcError) return false;
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; name?: unknown; statusCode?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = typeof e.statusCode === 'number' ? e.statusCode : e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && status > 0) return isTransientStatus(status);
  if (typeof e.code === 'string' && (TRANSIENT_CODES.has(e.code) || TRANSIENT_NAMES.has(e.code))) return true;
  return typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name);
}
