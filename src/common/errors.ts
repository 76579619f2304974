/**
 * The closed set of errors the service reports, each with its Elasticsearch error `type` and
 * HTTP status. Code anywhere throws these; src/http renders them once as
 * `{"error":{"type","reason",...},"status"}`.
 */

export class SvcError extends Error {
  constructor(
    /** Elasticsearch error type, e.g. `index_not_found_exception` */
    readonly type: string,
    readonly status: number,
    reason: string,
    /** extra fields rendered inside `error` (e.g. `index`, `line`, `col`) */
    readonly details: Record<string, unknown> = {},
  ) {
    super(reason);
    this.name = new.target.name;
  }

  get reason(): string {
    return this.message;
  }
}

/** 400 for a request that cannot be parsed or is invalid. */
export class BadRequestError extends SvcError {
  constructor(reason: string, type = 'illegal_argument_exception', details: Record<string, unknown> = {}) {
    super(type, 400, reason, details);
  }
}

/** 400 `parsing_exception`, for query syntax and query bodies, naming where it went wrong. */
export class ParsingError extends SvcError {
  constructor(reason: string, details: Record<string, unknown> = {}, type = 'parsing_exception') {
    super(type, 400, reason, details);
  }
}

export class IndexNotFoundError extends SvcError {
  /** `why`: the index may not be created on demand (`action.auto_create_index`), and why not */
  constructor(index: string, why?: string) {
    if (why === undefined) {
      super('index_not_found_exception', 404, `no such index [${index}]`, { 'resource.type': 'index_or_alias', 'resource.id': index, index });
    } else {
      super('index_not_found_exception', 404, `no such index [${index}] and ${why}`, { index_uuid: '_na_', index });
    }
  }
}

export class InvalidIndexNameError extends SvcError {
  constructor(index: string, why: string) {
    super('invalid_index_name_exception', 400, `Invalid index name [${index}], ${why}`, { index });
  }
}

export class ResourceExistsError extends SvcError {
  constructor(reason: string, type = 'resource_already_exists_exception', details: Record<string, unknown> = {}) {
    super(type, 400, reason, details);
  }
}

export class NotFoundError extends SvcError {
  constructor(reason: string, type = 'resource_not_found_exception', details: Record<string, unknown> = {}) {
    super(type, 404, reason, details);
  }
}

/**
 * An object-store lookup (get, ranged get, download) found no such object, or no such container
 * or bucket: 404, never 500 (earlier releases answered 500 for the Azure-type store).
 */
export class ObjectNotFoundError extends NotFoundError {
  constructor(readonly key: string) {
    super(`no such object [${key}]`, 'resource_not_found_exception', { 'resource.type': 'object', 'resource.id': key });
  }
}

export class ConflictError extends SvcError {
  constructor(reason: string, type = 'version_conflict_engine_exception', details: Record<string, unknown> = {}) {
    super(type, 409, reason, details);
  }
}

export class PayloadTooLargeError extends SvcError {
  constructor(reason: string) {
    super('content_too_long_exception', 413, reason);
  }
}

/** 429: a budget or a queue is full (the storage budget, the search queue); clients retry. */
export class TooManyRequestsError extends SvcError {
  constructor(reason: string) {
    super('es_rejected_execution_exception', 429, reason);
  }
}

export class AuthenticationError extends SvcError {
  constructor(reason: string) {
    super('security_exception', 401, reason);
  }
}

export class ForbiddenError extends SvcError {
  constructor(reason: string) {
    super('security_exception', 403, reason);
  }
}

/**
 * 429: the disk under the data directory is full. Like Elasticsearch's flood-stage block, the
 * write is refused as a whole and clients retry; nothing of it was acknowledged.
 */
export class DiskFullError extends SvcError {
  constructor(what: string) {
    super('cluster_block_exception', 429, `no space left on the device for ${what}: the write was not taken; retry once space is free`);
  }
}

/** Whether a failed file operation ran out of space (a full disk or an exhausted quota). */
export function isOutOfSpace(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The query ran past its hard timeout and was stopped. */
export class QueryTimeoutError extends SvcError {
  constructor(reason: string) {
    super('search_timeout_exception', 504, reason);
  }
}

/** A request would use more memory than its budget allows (aggregations, scroll state). */
export class CircuitBreakingError extends SvcError {
  constructor(reason: string, details: Record<string, unknown> = {}) {
    super('circuit_breaking_exception', 429, reason, { durability: 'TRANSIENT', ...details });
  }
}

/** A persisted file failed its checksum or format check; names the file. */
export class CorruptionError extends SvcError {
  constructor(file: string, why: string) {
    super('corrupt_index_exception', 500, `corrupt file [${file}]: ${why}`, { file });
  }
}

export class ServiceUnavailableError extends SvcError {
  constructor(reason: string) {
    super('service_unavailable_exception', 503, reason);
  }
}

/**
 * A request about an index this node does not take now: being handed over to another node, held
 * by another, or this node's lease is out. Refused before anything of it was applied, so the
 * caller may send it again, unchanged, once it has read where the index is (the api role does).
 */
export class IndexNotHereError extends SvcError {
  static readonly TYPE = 'unavailable_shards_exception';

  constructor(reason: string, index?: string) {
    super(IndexNotHereError.TYPE, 503, reason, index === undefined ? {} : { index });
  }
}
