/**
 * The one place errors become HTTP responses: SvcError subclasses carry their ES type and
 * status; fastify's own errors (body too large, bad content) and anything unexpected are mapped
 * here to the Elasticsearch error shape `{"error":{"root_cause","type","reason"},"status"}`.
 */
import { DiskFullError, isOutOfSpace, SvcError } from '../common/index.js';

export interface EsErrorBody {
  error: {
    root_cause: Array<Record<string, unknown>>;
    type: string;
    reason: string;
    [key: string]: unknown;
  };
  status: number;
}

export function esErrorBody(type: string, reason: string, status: number, details: Record<string, unknown> = {}): EsErrorBody {
  const cause: Record<string, unknown> & { type: string; reason: string } = { type, reason, ...details };
  // the root cause is the error itself, without the chain of causes below it
  const root = { ...cause };
  delete root.caused_by;
  return { error: { root_cause: [root], ...cause }, status };
}

/** The error object alone, for bulk items and msearch responses. */
export function esErrorObject(err: SvcError): Record<string, unknown> {
  return { type: err.type, reason: err.reason, ...err.details };
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message: string;
}

function isFastifyError(err: unknown): err is FastifyLikeError {
  return typeof err === 'object' && err !== null && 'code' in err && typeof (err as { code: unknown }).code === 'string';
}

/** Maps any thrown value to a status and ES error body; `internal` says whether to log it as a bug. */
export function renderError(err: unknown): { status: number; body: EsErrorBody; internal: boolean } {
  if (err instanceof SvcError) {
    return { status: err.status, body: esErrorBody(err.type, err.reason, err.status, err.details), internal: err.status >= 500 };
  }
  // a full disk met outside the write-ahead log (a new index's catalog row, a flush asked for)
  if (isOutOfSpace(err) || (err as { code?: unknown } | null)?.code === 'SQLITE_FULL') {
    const full = new DiskFullError('the data directory');
    return { status: full.status, body: esErrorBody(full.type, full.reason, full.status), internal: false };
  }
  // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR, ...) come from inflating a request body
  if (isFastifyError(err) && /^Z_[A-Z_]+$/.test(err.code ?? '')) {
    return { status: 400, body: esErrorBody('parse_exception', `request body could not be decompressed: ${err.message}`, 400), internal: false };
  }
  if (isFastifyError(err)) {
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return {
          status: 413,
          body: esErrorBody('content_too_long_exception', 'request body is larger than the allowed maximum (SVC_MAX_BULK_BYTES)', 413),
          internal: false,
        };
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return { status: 400, body: esErrorBody('parse_exception', err.message, 400), internal: false };
      default:
        break;
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      return { status, body: esErrorBody('illegal_argument_exception', err.message, status), internal: false };
    }
  }
  return { status: 500, body: esErrorBody('exception', 'internal server error', 500), internal: true };
}
