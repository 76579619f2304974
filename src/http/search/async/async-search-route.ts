/**
 * `POST /_async_search`, `POST /{index}/_async_search` (submit), `GET /_async_search/{id}`,
 * `GET /_async_search/status/{id}` and `DELETE /_async_search/{id}`, answered with
 * Elasticsearch's envelope: `id` (when the search is kept), `is_partial`, `is_running`,
 * `start_time_in_millis`, `expiration_time_in_millis` and `response` (the `_search` response;
 * empty hits while running). A search that failed answers with its error and status.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbiddenIndexError, type AccessContext } from '../../../auth/index.js';
import { BadRequestError } from '../../../common/index.js';
import type { ApiDeps } from '../../deps.js';
import { renderError } from '../../error-render.js';
import { sendJsonText } from '../../json-reply.js';
import { boolParam, stringParam, type QueryParams } from '../../query-params.js';
import { jsonObjectBody } from '../../request-body.js';
import { bodyOf } from '../get-body.js';
import { executeSearch, prepareSearch } from '../prepare-search.js';
import { parseTimeValue } from '../time-value.js';
import { AsyncSearchStore, asyncSearchMissing, newAsyncSearchId, type AsyncOutcome, type AsyncSearchEntry } from './async-search-store.js';

type AsyncHttpRequest = FastifyRequest<{ Params: { index?: string; id?: string }; Querystring: QueryParams }>;

/** Elasticsearch's defaults: wait a second, keep five days */
const DEFAULT_WAIT_MS = 1000;
const DEFAULT_KEEP_ALIVE_MS = 5 * 86_400_000;
const MIN_KEEP_ALIVE_MS = 1000;

function timeParam(params: QueryParams, name: string): number | undefined {
  const v = stringParam(params, name);
  return v === undefined || v === '' ? undefined : parseTimeValue(v, name, true);
}

function keepAliveParam(params: QueryParams): number | undefined {
  const ms = timeParam(params, 'keep_alive');
  if (ms !== undefined && ms < MIN_KEEP_ALIVE_MS) {
    throw new BadRequestError(`Validation Failed: 1: [keep_alive] must be greater or equals than 1 second, got:${stringParam(params, 'keep_alive')};`, 'action_request_validation_exception');
  }
  return ms;
}

/** True when the search ended within `ms` (at once false for 0: the answer goes out now). */
async function endsWithin(entry: Pick<AsyncSearchEntry, 'done'> & { outcome?: AsyncOutcome }, ms: number): Promise<boolean> {
  if (entry.outcome !== undefined) return true;
  if (ms <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([entry.done.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface EnvelopeParts {
  id: string | undefined;
  entry: AsyncSearchEntry;
  shards: number;
}

/** The async envelope as JSON text, with its HTTP status (a failed search answers with its error's). */
function envelope({ id, entry, shards }: EnvelopeParts): { status: number; text: string } {
  const outcome = entry.outcome;
  const running = outcome === undefined;
  let text = '{';
  if (id !== undefined) text += `"id":${JSON.stringify(id)},`;
  text += `"is_partial":${running || !outcome.ok},"is_running":${running}`;
  text += `,"start_time_in_millis":${entry.startTimeMs},"expiration_time_in_millis":${entry.expiresAtMs}`;
  if (outcome?.ok === false) {
    const { status, body } = renderError(outcome.error);
    return { status, text: `${text},"error":${JSON.stringify(body.error)}}` };
  }
  const response = outcome?.ok
    ? outcome.responseText
    : `{"took":${Math.round(performance.now() - entry.startedClockMs)},"timed_out":false,"num_reduce_phases":0,` +
      `"_shards":{"total":${shards},"successful":0,"skipped":0,"failed":0},"hits":{"total":{"value":0,"relation":"gte"},"max_score":null,"hits":[]}}`;
  return { status: 200, text: `${text},"response":${response}}` };
}

/** Read access to every index of the search, checked again on each read as for scroll pages. */
function assertStillReadable(access: AccessContext, entry: AsyncSearchEntry): void {
  for (const index of entry.indices) if (!access.can('read', index)) throw forbiddenIndexError('read', index);
}

/**
 * How a search is run: `prepare` parses it and resolves its indexes (every 4xx a search gives,
 * before an id exists), `run` then searches and renders the `_search` response. One node runs
 * it on its engine; the api role of a cluster spreads it over the cache nodes.
 */
export type AsyncSearchRunner = (
  access: AccessContext,
  params: QueryParams,
  index: string | undefined,
  body: Record<string, unknown> | undefined,
  startedMs: number,
) => Promise<{ indices: string[]; run: () => Promise<string> }>;

/** The runner of a node holding every index it searches. */
export function engineSearchRunner(deps: ApiDeps): AsyncSearchRunner {
  return async (access, params, index, body, startedMs) => {
    const prepared = prepareSearch(deps, access, params, index, body);
    return { indices: prepared.scope.indices, run: () => executeSearch(deps, prepared, startedMs) };
  };
}

export function registerAsyncSearchRoutes(
  app: FastifyInstance,
  deps: Pick<ApiDeps, 'config'>,
  store: AsyncSearchStore,
  accessOf: (request: FastifyRequest) => AccessContext,
  runner: AsyncSearchRunner,
): void {
  const submit = async (request: AsyncHttpRequest, reply: FastifyReply) => {
    const params = request.query;
    if (stringParam(params, 'scroll') !== undefined) {
      throw new BadRequestError('Validation Failed: 1: [scroll] is not supported on this endpoint;', 'action_request_validation_exception');
    }
    const waitMs = timeParam(params, 'wait_for_completion_timeout') ?? DEFAULT_WAIT_MS;
    const keepAliveMs = keepAliveParam(params) ?? DEFAULT_KEEP_ALIVE_MS;
    const keepOnCompletion = boolParam(params, 'keep_on_completion') ?? false;
    const access = accessOf(request);
    const started = performance.now();
    const body = jsonObjectBody(await bodyOf(request, deps.config.maxBulkBytes));
    // every 4xx a search can give is given here, before an id exists
    const prepared = await runner(access, params, request.params.index, body, started);
    const startTimeMs = store.now();
    const entry: AsyncSearchEntry = {
      id: newAsyncSearchId(),
      owner: access.principalLabel,
      indices: prepared.indices,
      startTimeMs,
      startedClockMs: started,
      expiresAtMs: startTimeMs + keepAliveMs,
      done: prepared.run().then(
        (responseText): AsyncOutcome => ({ ok: true, responseText }),
        (error: Error): AsyncOutcome => ({ ok: false, error }),
      ),
    };
    void entry.done.then((outcome) => {
      entry.outcome = outcome;
      if (!outcome.ok && renderError(outcome.error).internal) request.log.error({ err: outcome.error }, 'async search failed');
    });
    const ended = await endsWithin(entry, waitMs);
    // a search answered whole is kept only when asked to be, as in Elasticsearch
    const keep = !ended || keepOnCompletion;
    if (keep) {
      store.assertRoom();
      store.add(entry);
    }
    const { status, text } = envelope({ id: keep ? entry.id : undefined, entry, shards: prepared.indices.length });
    return sendJsonText(reply, text, status);
  };
  app.post('/_async_search', submit);
  app.post('/:index/_async_search', submit);

  const found = (request: AsyncHttpRequest): AsyncSearchEntry => {
    const id = request.params.id!;
    const access = accessOf(request);
    const entry = store.get(id, access.principalLabel);
    if (entry === undefined) throw asyncSearchMissing(id);
    assertStillReadable(access, entry);
    return entry;
  };

  app.get('/_async_search/:id', async (request: AsyncHttpRequest, reply: FastifyReply) => {
    const entry = found(request);
    const keepAliveMs = keepAliveParam(request.query);
    if (keepAliveMs !== undefined) entry.expiresAtMs = store.now() + keepAliveMs;
    await endsWithin(entry, timeParam(request.query, 'wait_for_completion_timeout') ?? 0);
    const { status, text } = envelope({ id: entry.id, entry, shards: entry.indices.length });
    return sendJsonText(reply, text, status);
  });

  app.get('/_async_search/status/:id', async (request: AsyncHttpRequest) => {
    const entry = found(request);
    const outcome = entry.outcome;
    const shards = entry.indices.length;
    const ok = outcome?.ok === true;
    return {
      id: entry.id,
      is_running: outcome === undefined,
      is_partial: !ok,
      start_time_in_millis: entry.startTimeMs,
      expiration_time_in_millis: entry.expiresAtMs,
      _shards: { total: shards, successful: ok ? shards : 0, skipped: 0, failed: outcome?.ok === false ? shards : 0 },
      ...(outcome === undefined ? {} : { completion_status: outcome.ok ? 200 : renderError(outcome.error).status }),
    };
  });

  app.delete('/_async_search/:id', async (request: AsyncHttpRequest) => {
    const id = request.params.id!;
    // a running search is not stopped (it ends within the query time limit); its result is dropped
    if (!store.remove(id, accessOf(request).principalLabel)) throw asyncSearchMissing(id);
    return { acknowledged: true };
  });
}
