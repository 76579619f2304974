/**
 * `_bulk` in the api role of a cluster: the body is split by the cache node holding each item's
 * index (an alias' write index; a new index is placed first), each node gets its items' lines
 * as one bulk request of its own, and the answer lists every item's result in the order of the
 * request. An item that fails here (a bad `_id`, an alias without a write index, an index the
 * caller may not write) is answered here. Items a node refused before applying them (their
 * index is being handed over, or held elsewhere now) are sent again where the placements then
 * say, until the request's deadline; a node that cannot be reached fails its items with 503.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bulkItemForbidden } from '../../auth/index.js';
import { IndexNotHereError, SvcError, ServiceUnavailableError } from '../../common/index.js';
import { notApplied, remoteError } from '../../cluster/index.js';
import { accessOf } from '../auth-hook.js';
import { assertStorageBudget, failedItem } from '../bulk/bulk-route.js';
import { parseBulk } from '../bulk/parse-bulk.js';
import { FORWARDED_HEADERS, FORWARD_PATH, FORWARD_URL_HEADER, INDEXES_HEADER, pickHeaders } from '../internal/forward-route.js';
import { sendJsonText } from '../json-reply.js';
import { bodyBuffer } from '../request-body.js';
import type { RoutedApiDeps } from './deps.js';

interface BulkParams {
  index?: string;
}

const NEWLINE = Buffer.from('\n');

interface Part {
  items: number[];
  indexes: Set<string>;
}

export function registerRoutedBulk(app: FastifyInstance, deps: RoutedApiDeps): void {
  const handler = async (request: FastifyRequest<{ Params: BulkParams }>, reply: FastifyReply) =>
    sendJsonText(reply, await routedBulk(deps, request));
  for (const path of ['/_bulk', '/:index/_bulk']) {
    app.post(path, handler);
    app.put(path, handler);
  }
}

async function routedBulk(deps: RoutedApiDeps, request: FastifyRequest<{ Params: BulkParams }>): Promise<string> {
  const started = performance.now();
  // refused whole before anything is sent, as one process refuses it
  assertStorageBudget(deps.writeBudget.pendingBytes(), deps.config.storageMaxPendingBytes);
  const body = bodyBuffer(request.body);
  // counted here, once: the cache nodes do not count the parts sent to them
  deps.metrics.usageWriteBytes.inc(body.length);
  const { items } = parseBulk(body, request.params.index);
  const access = accessOf(request);
  const deadline = deps.routing.deadline();
  const rendered: string[] = new Array(items.length);
  let anyError = false;
  const fail = (i: number, err: SvcError) => {
    anyError = true;
    rendered[i] = failedItem(items[i]!.action, items[i]!.index, items[i]!.id, err);
  };
  let pending: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const denied = items[i]!.error ?? bulkItemForbidden(access, items[i]!.index);
    if (denied) fail(i, denied);
    else pending.push(i);
  }
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const path = request.params.index === undefined ? '/_bulk' : `/${encodeURIComponent(request.params.index)}/_bulk`;
  const headers = { ...pickHeaders(FORWARDED_HEADERS, (name) => request.headers[name]), 'content-type': 'application/x-ndjson' };
  const sentTo: Part[] = [];
  let wholeAnswer: string | undefined;
  // items a cache node refused before applying anything (an index moving) go again, to where
  // the placements say, until the request's deadline
  for (let round = 0; pending.length > 0; round++) {
    const parts = await partsByOwner(deps, items, pending, deadline, fail);
    sentTo.push(...parts.values());
    // the usual case, a shipper's batch for one node with nothing failed here: the body goes on as
    // it came and the node's answer comes back as it is, with no item split, parsed or rendered
    const whole = round === 0 && !anyError && parts.size === 1 && [...parts.values()][0]!.items.length === items.length;
    const again: number[] = [];
    const mayRetry = () => Date.now() < deadline;
    await Promise.all(
      [...parts].map(async ([url, part]) => {
        const partHeaders = { ...headers, [INDEXES_HEADER]: [...part.indexes].join(',') };
        let answered: unknown[];
        try {
          if (whole) {
            const text = await sendWhole(deps, url, path + query, body, partHeaders);
            // items refused before they were applied are rare: only then is the answer read
            if (!text.includes(IndexNotHereError.TYPE)) {
              wholeAnswer = text;
              return;
            }
            answered = itemsOf(text, part.items.length);
          } else {
            const lines: Buffer[] = [];
            for (const i of part.items) lines.push(body.subarray(items[i]!.spanStart, items[i]!.spanEnd), NEWLINE);
            answered = await sendPart(deps, url, path + query, Buffer.concat(lines), partHeaders, part.items.length);
          }
        } catch (err) {
          if (!(err instanceof SvcError)) throw err;
          // the node died or no longer holds the index: the next request reads the placements again
          if (err.status === 503) deps.routing.invalidate();
          if (notApplied(err.status, err.type) && mayRetry()) again.push(...part.items);
          else for (const i of part.items) fail(i, err);
          return;
        }
        part.items.forEach((i, k) => {
          const result = Object.values(answered[k] as Record<string, { status?: number; error?: { type?: string } }>)[0];
          const status = result?.status ?? 500;
          if (notApplied(status, result?.error?.type) && mayRetry()) {
            again.push(i);
            return;
          }
          anyError ||= status >= 300;
          rendered[i] = JSON.stringify(answered[k]);
        });
      }),
    );
    if (again.length === 0 || wholeAnswer !== undefined) break;
    deps.routing.invalidate();
    await new Promise((r) => setTimeout(r, 100));
    pending = again.sort((a, b) => a - b);
  }
  if (sentTo.some((p) => [...p.indexes].some((index) => !deps.routing.knows(index)))) deps.routing.invalidate();
  if (wholeAnswer !== undefined) return wholeAnswer;
  const took = Math.round(performance.now() - started);
  return `{"took":${took},"errors":${anyError},"items":[${rendered.join(',')}]}`;
}

/** The items grouped by the cache node holding each one's index (an alias' write index; a new index is placed first). */
async function partsByOwner(
  deps: RoutedApiDeps,
  items: ReturnType<typeof parseBulk>['items'],
  pending: readonly number[],
  deadline: number,
  fail: (i: number, err: SvcError) => void,
): Promise<Map<string, Part>> {
  const parts = new Map<string, Part>();
  // shippers send many items of one index: it is looked up once, failure included
  const owners = new Map<string, { index: string; url: string } | SvcError>();
  for (const i of pending) {
    const item = items[i]!;
    let owner = owners.get(item.index);
    if (owner === undefined) {
      try {
        const index = await deps.routing.writeIndexFor(item.index);
        owner = { index, url: (await deps.routing.ownerUrl(index, true, deadline))! };
      } catch (err) {
        if (!(err instanceof SvcError)) throw err;
        owner = err;
      }
      owners.set(item.index, owner);
    }
    if (owner instanceof SvcError) {
      fail(i, owner);
      continue;
    }
    let part = parts.get(owner.url);
    if (!part) parts.set(owner.url, (part = { items: [], indexes: new Set() }));
    part.items.push(i);
    part.indexes.add(owner.index);
  }
  return parts;
}

/** A bulk body sent to one node: its answer text, as the node wrote it; an error status thrown as the node's error. */
async function sendWhole(deps: RoutedApiDeps, url: string, path: string, body: Buffer, headers: Record<string, string>): Promise<string> {
  const res = await deps.client.call(url, FORWARD_PATH, { method: 'POST', body, headers: { ...headers, [FORWARD_URL_HEADER]: path } });
  const text = res.body.toString('utf8');
  if (res.status === 200) return text;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not an error body of ours (a proxy's page, say): remoteError words it from the status
  }
  throw remoteError(res.status, parsed);
}

/** One node's items: their results, in the order sent. */
async function sendPart(deps: RoutedApiDeps, url: string, path: string, body: Buffer, headers: Record<string, string>, count: number): Promise<unknown[]> {
  return itemsOf(await sendWhole(deps, url, path, body, headers), count);
}

/** The item results of a node's bulk answer, checked to be as many as it was sent. */
function itemsOf(text: string, count: number): unknown[] {
  const parsed = JSON.parse(text) as { items?: unknown[] };
  if (!Array.isArray(parsed.items) || parsed.items.length !== count) {
    throw new ServiceUnavailableError(`a cache node answered a bulk part of ${count} items with ${parsed.items?.length ?? 0}`);
  }
  return parsed.items;
}
