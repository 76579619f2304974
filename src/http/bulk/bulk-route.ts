/**
 * `POST|PUT /_bulk` and `/{index}/_bulk`: parse, check the write budget, write through the
 * engine, answer with one item per action in request order.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError, TooManyRequestsError } from '../../common/index.js';
import type { WriteOp, WriteOutcome, WriteResult } from '../../engine/index.js';
import type { ApiDeps } from '../deps.js';
import { esErrorObject } from '../error-render.js';
import { bodyBuffer } from '../request-body.js';
import { sendJsonText } from '../json-reply.js';
import { parseBulk, type BulkAction } from './parse-bulk.js';

interface BulkParams {
  index?: string;
}

export function registerBulkRoutes(app: FastifyInstance, deps: ApiDeps, canWrite: IndexPermissionCheck): void {
  const handler = async (request: FastifyRequest<{ Params: BulkParams }>, reply: FastifyReply) =>
    sendJsonText(reply, await handleBulk(request, deps, canWrite));
  app.post('/_bulk', handler);
  app.put('/_bulk', handler);
  app.post('/:index/_bulk', handler);
  app.put('/:index/_bulk', handler);
}

/** Whether the request's actor may write the index; the RBAC layer supplies it. */
export type IndexPermissionCheck = (request: FastifyRequest, index: string) => SvcError | undefined;

/** Refuses a write with 429 while too much waits for storage or for a flush. */
export function assertWriteBudget(deps: ApiDeps): void {
  const pending = deps.engine.pendingStorageBytes();
  if (pending > deps.config.storageMaxPendingBytes) {
    throw new TooManyRequestsError(
      `rejected bulk request: ${pending} bytes are waiting for storage, over the budget of ${deps.config.storageMaxPendingBytes} bytes; retry later`,
    );
  }
  if (pending > deps.config.walMaxUnflushedBytes) {
    throw new TooManyRequestsError(
      `rejected bulk request: ${pending} bytes of the write-ahead log are not flushed yet, over SVC_WAL_MAX_UNFLUSHED_BYTES (${deps.config.walMaxUnflushedBytes}); retry later`,
    );
  }
}

async function handleBulk(request: FastifyRequest<{ Params: BulkParams }>, deps: ApiDeps, canWrite: IndexPermissionCheck): Promise<string> {
  const started = performance.now();
  assertWriteBudget(deps);
  // a refused request wrote nothing: usage counts only bodies taken in
  const body = bodyBuffer(request.body);
  deps.metrics.usageWriteBytes.inc(body.length);

  const { items } = parseBulk(body, request.params.index);
  const ops: WriteOp[] = [];
  const opOf: number[] = new Array(items.length).fill(-1);
  const errors: Array<SvcError | undefined> = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const denied = item.error ? undefined : canWrite(request, item.index);
    if (item.error || denied) {
      errors[i] = item.error ?? denied;
      continue;
    }
    let index: string;
    try {
      // a write to an alias goes to its write index
      index = deps.engine.writeIndexFor(item.index);
    } catch (err) {
      if (!(err instanceof SvcError)) throw err;
      errors[i] = err;
      continue;
    }
    opOf[i] = ops.length;
    ops.push({ index, start: item.start, end: item.end, action: item.action, id: item.id, update: item.update });
  }

  const outcomes = await deps.engine.write(body, ops);
  let anyError = false;
  let indexedBytes = 0;
  const rendered: string[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const outcome = opOf[i]! >= 0 ? outcomes[opOf[i]!]! : undefined;
    if (outcome?.ok && !item.error) {
      if (item.action === 'index' || item.action === 'create') indexedBytes += item.end - item.start;
      rendered[i] = writtenItem(item.action, outcome);
    } else {
      anyError = true;
      const error = outcome && !outcome.ok ? outcome.error : errors[i]!;
      rendered[i] = failedItem(item.action, item.index, (outcome && !outcome.ok ? outcome.id : undefined) ?? item.id, error);
    }
  }
  deps.metrics.bulkRequestIndexedBytes.inc(indexedBytes);
  const took = Math.round(performance.now() - started);
  return `{"took":${took},"errors":${anyError},"items":[${rendered.join(',')}]}`;
}

/** HTTP status of a write's result, as Elasticsearch answers it per item and per request. */
export function writeStatus(result: WriteResult): number {
  return result === 'created' ? 201 : result === 'not_found' ? 404 : 200;
}

/**
 * The body of a successful write (`_index` … `_primary_term`), as the document APIs answer
 * and as a bulk item holds it (with `status`).
 */
export function writtenFields(outcome: Extract<WriteOutcome, { ok: true }>): string {
  // a noop writes nothing: no shard took part
  const shards = outcome.result === 'noop' ? '{"total":0,"successful":0,"failed":0}' : '{"total":1,"successful":1,"failed":0}';
  return `"_index":${JSON.stringify(outcome.index)},"_type":"_doc","_id":${JSON.stringify(outcome.id)},"_version":${outcome.version},"result":"${outcome.result}","_shards":${shards},"_seq_no":${Math.max(0, outcome.lid - 1)},"_primary_term":1`;
}

function writtenItem(action: BulkAction, outcome: Extract<WriteOutcome, { ok: true }>): string {
  return `{"${action}":{${writtenFields(outcome)},"status":${writeStatus(outcome.result)}}}`;
}

/** A document that did not parse fails on its own: its error names no index, as Elasticsearch's does not. */
const DOCUMENT_ERRORS: ReadonlySet<string> = new Set(['mapper_parsing_exception']);

export function failedItem(action: BulkAction, index: string, id: string | undefined, error: SvcError): string {
  const rendered = esErrorObject(error);
  if (!DOCUMENT_ERRORS.has(error.type)) rendered.index ??= index;
  return JSON.stringify({ [action]: { _index: index, _type: '_doc', _id: id ?? null, status: error.status, error: rendered } });
}
