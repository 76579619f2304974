/**
 * `_bulk` in the api role of a cluster: the body is split by the cache node holding each item's
 * index (an alias' write index; a new index is placed first), each node gets its items' lines
 * as one bulk request of its own, and the answer lists every item's result in the order of the
 * request. An item that fails here (a bad `_id`, an alias without a write index, an index the
 * caller may not write) is answered here; a node that cannot be reached fails its items with 503.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bulkItemForbidden } from '../../auth/index.js';
import { SvcError, ServiceUnavailableError } from '../../common/index.js';
import { remoteError } from '../../cluster/index.js';
import { accessOf } from '../auth-hook.js';
import { failedItem } from '../bulk/bulk-route.js';
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
  const body = bodyBuffer(request.body);
  deps.metrics.usageWriteBytes.inc(body.length);
  const { items } = parseBulk(body, request.params.index);
  const access = accessOf(request);
  const rendered: string[] = new Array(items.length);
  let anyError = false;
  const parts = new Map<string, Part>();
  const owners = new Map<string, { index: string; url: string } | SvcError>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    try {
      const denied = item.error ?? bulkItemForbidden(access, item.index);
      if (denied) throw denied;
      // shippers send many items of one index: it is looked up once per request, failure included
      let owner = owners.get(item.index);
      if (owner === undefined) {
        try {
          const index = await deps.routing.writeIndexFor(item.index);
          owner = { index, url: (await deps.routing.ownerUrl(index, true))! };
        } catch (err) {
          if (!(err instanceof SvcError)) throw err;
          owner = err;
        }
        owners.set(item.index, owner);
      }
      if (owner instanceof SvcError) throw owner;
      const { index, url } = owner;
      let part = parts.get(url);
      if (!part) parts.set(url, (part = { items: [], indexes: new Set() }));
      part.items.push(i);
      part.indexes.add(index);
    } catch (err) {
      if (!(err instanceof SvcError)) throw err;
      anyError = true;
      rendered[i] = failedItem(item.action, item.index, item.id, err);
    }
  }
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const path = request.params.index === undefined ? '/_bulk' : `/${encodeURIComponent(request.params.index)}/_bulk`;
  const headers = { ...pickHeaders(FORWARDED_HEADERS, (name) => request.headers[name]), 'content-type': 'application/x-ndjson' };
  // the usual case, a shipper's batch for one node with nothing failed here: the body goes on as
  // it came and the node's answer comes back as it is, with no item split, parsed or rendered
  const whole = !anyError && parts.size === 1 && [...parts.values()][0]!.items.length === items.length;
  let wholeAnswer: string | undefined;
  await Promise.all(
    [...parts].map(async ([url, part]) => {
      const partHeaders = { ...headers, [INDEXES_HEADER]: [...part.indexes].join(',') };
      let answered: string[];
      try {
        if (whole) {
          wholeAnswer = await sendWhole(deps, url, path + query, body, partHeaders);
          return;
        }
        const lines: Buffer[] = [];
        for (const i of part.items) lines.push(body.subarray(items[i]!.spanStart, items[i]!.spanEnd), NEWLINE);
        let errors: boolean;
        ({ items: answered, errors } = await sendPart(deps, url, path + query, Buffer.concat(lines), partHeaders, part.items.length));
        anyError ||= errors;
      } catch (err) {
        if (!(err instanceof SvcError)) throw err;
        // the node died or no longer holds the index: the retry reads the placements again
        if (err.status === 503) deps.routing.invalidate();
        answered = part.items.map((i) => failedItem(items[i]!.action, items[i]!.index, items[i]!.id, err));
        anyError = true;
      }
      part.items.forEach((i, k) => (rendered[i] = answered[k]!));
    }),
  );
  if ([...parts.values()].some((p) => [...p.indexes].some((index) => !deps.routing.knows(index)))) deps.routing.invalidate();
  if (wholeAnswer !== undefined) return wholeAnswer;
  const took = Math.round(performance.now() - started);
  return `{"took":${took},"errors":${anyError},"items":[${rendered.join(',')}]}`;
}

/** The whole request sent to one node: its answer text, as the node wrote it. */
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

/** One node's items: their rendered results, in the order sent. */
async function sendPart(deps: RoutedApiDeps, url: string, path: string, body: Buffer, headers: Record<string, string>, count: number): Promise<{ items: string[]; errors: boolean }> {
  const res = await deps.client.call(url, FORWARD_PATH, { method: 'POST', body, headers: { ...headers, [FORWARD_URL_HEADER]: path } });
  const parsed = JSON.parse(res.body.toString('utf8')) as { items?: unknown[]; errors?: boolean };
  if (res.status !== 200) throw remoteError(res.status, parsed);
  if (!Array.isArray(parsed.items) || parsed.items.length !== count) {
    throw new ServiceUnavailableError(`a cache node answered a bulk part of ${count} items with ${parsed.items?.length ?? 0}`);
  }
  return { items: parsed.items.map((item) => JSON.stringify(item)), errors: parsed.errors === true };
}

