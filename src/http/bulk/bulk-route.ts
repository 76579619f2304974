/**
 * `POST|PUT /_bulk` and `/{index}/_bulk`: parse, check the write budget, write through the
 * engine, answer with one item per action in request order.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError, TooManyRequestsError } from '../../common/index.js';
import type { WriteOp } from '../../engine/index.js';
import type { ApiDeps } from '../deps.js';
import { esErrorObject } from '../error-render.js';
import { bodyBuffer } from '../request-body.js';
import { sendJsonText } from '../json-reply.js';
import { BulkResponseWriter } from './bulk-response.js';
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

/**
 * Refuses a write with 429 while too much waits for storage (in a cluster, on all cache nodes
 * together) or for a flush of this node's log.
 */
export function assertWriteBudget(deps: ApiDeps): void {
  const pending = deps.engine.pendingStorageBytes();
  assertStorageBudget(deps.clusterPendingBytes?.(pending) ?? pending, deps.config.storageMaxPendingBytes);
  if (pending > deps.config.walMaxUnflushedBytes) {
    throw new TooManyRequestsError(
      `rejected bulk request: ${pending} bytes of the write-ahead log are not flushed yet, over SVC_WAL_MAX_UNFLUSHED_BYTES (${deps.config.walMaxUnflushedBytes}); retry later`,
    );
  }
}

/** 429 when `pending` bytes waiting for storage are over the budget (SVC_STORAGE_MAX_PENDING_BYTES). */
export function assertStorageBudget(pending: number, budget: number): void {
  if (pending > budget) {
    throw new TooManyRequestsError(`rejected bulk request: ${pending} bytes are waiting for storage, over the budget of ${budget} bytes; retry later`);
  }
}

async function handleBulk(request: FastifyRequest<{ Params: BulkParams }>, deps: ApiDeps, canWrite: IndexPermissionCheck): Promise<Buffer> {
  const started = performance.now();
  assertWriteBudget(deps);
  // a refused request wrote nothing: usage counts only bodies taken in
  const body = bodyBuffer(request.body);
  // in a cluster this is a cache node's share of a bulk request, counted whole by the api process that took it
  if (deps.config.cluster.allRoles) deps.metrics.usageWriteBytes.inc(body.length);

  const { items } = parseBulk(body, request.params.index);
  const ops: WriteOp[] = [];
  const opOf: number[] = new Array(items.length).fill(-1);
  const errors: Array<SvcError | undefined> = new Array(items.length);
  // one check and one alias lookup per run of items naming the same index
  let lastIndex: string | undefined;
  let lastDenied: SvcError | undefined;
  let lastTarget: string | SvcError = '';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.error !== undefined) {
      errors[i] = item.error;
      continue;
    }
    if (item.index !== lastIndex) {
      lastIndex = item.index;
      lastDenied = canWrite(request, item.index);
      try {
        // a write to an alias goes to its write index
        lastTarget = lastDenied ? '' : deps.engine.writeIndexFor(item.index);
      } catch (err) {
        if (!(err instanceof SvcError)) throw err;
        lastTarget = err;
      }
    }
    if (lastDenied || lastTarget instanceof SvcError) {
      errors[i] = lastDenied ?? (lastTarget as SvcError);
      continue;
    }
    opOf[i] = ops.length;
    // the item is the op when it names its index itself: no object per document
    ops.push(lastTarget === item.index ? item : { index: lastTarget, start: item.start, end: item.end, action: item.action, id: item.id, update: item.update });
  }

  const outcomes = await deps.engine.write(body, ops);
  let anyError = false;
  let indexedBytes = 0;
  const answer = new BulkResponseWriter(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const outcome = opOf[i]! >= 0 ? outcomes[opOf[i]!]! : undefined;
    if (outcome?.ok && !item.error) {
      if (item.action === 'index' || item.action === 'create') indexedBytes += item.end - item.start;
      answer.written(item.action, outcome);
    } else {
      anyError = true;
      const error = outcome && !outcome.ok ? outcome.error : errors[i]!;
      answer.text(failedItem(item.action, item.index, (outcome && !outcome.ok ? outcome.id : undefined) ?? item.id, error));
    }
  }
  deps.metrics.bulkRequestIndexedBytes.inc(indexedBytes);
  const took = Math.round(performance.now() - started);
  return answer.finish(took, anyError);
}

/** A document that did not parse fails on its own: its error names no index, as Elasticsearch's does not. */
const DOCUMENT_ERRORS: ReadonlySet<string> = new Set(['mapper_parsing_exception']);

export function failedItem(action: BulkAction, index: string, id: string | undefined, error: SvcError): string {
  const rendered = esErrorObject(error);
  if (!DOCUMENT_ERRORS.has(error.type)) rendered.index ??= index;
  return JSON.stringify({ [action]: { _index: index, _type: '_doc', _id: id ?? null, status: error.status, error: rendered } });
}
