/**
 * Listings and actions over several indexes in the api role of a cluster, answered over every
 * cache node holding some of them (listing.ts) and merged as one process holding them all
 * answers: `_stats`, `_cat/indices`, `_cat/count`, `GET` and `PUT _mapping`, `GET _settings`,
 * `GET /{indexes}`, `HEAD /{indexes}` (from the catalog alone), `DELETE /{indexes}`, `_refresh`,
 * `_flush` and `_forcemerge`; `_field_caps` and `_mget` in files of their own.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { accessOf } from '../auth-hook.js';
import { renderCat, type CatCell, type CatColumn } from '../indices/cat-table.js';
import { clock, COUNT_COLUMNS, INDICES_COLUMNS } from '../indices/cat-routes.js';
import { assertNoAliasNamed, indexExists } from '../indices/index-routes.js';
import { mappingUpdateOf } from '../indices/mapping-routes.js';
import { metricsOf } from '../indices/stats-routes.js';
import { resolveTargets } from '../indices/targets.js';
import { permittedIndices } from '../../auth/index.js';
import { IndexMapping } from '../../engine/index.js';
import type { RoutedApiDeps } from './deps.js';
import { jsonOf, withPlacements, type HolderAnswer } from './fan-out.js';
import { forwardRequest } from './forward.js';
import { addedUp, answerListing, byIndex, catalogOf, namingUrl, splitUrl, withParam, type Listing, type ListingRequest } from './listing.js';
import { registerRoutedFieldCaps } from './routed-field-caps.js';
import { registerRoutedMget } from './routed-mget.js';

export function registerRoutedListings(app: FastifyInstance, deps: RoutedApiDeps): void {
  const route = (listing: Listing) => (request: ListingRequest, reply: FastifyReply) => answerListing(deps, listing, request, reply);

  const stats = route({
    targets: (catalog, request) => {
      metricsOf(request.params.stats, splitUrl(request.url)[0]);
      return resolveTargets(catalog, accessOf(request), request.query, 'read', request.params.index);
    },
    merge: (_reply, names, answers) => {
      const parts = answers.map((a) => jsonOf<{ _shards: unknown; _all: unknown; indices: Record<string, unknown> }>(a));
      return { _shards: addedUp(parts.map((p) => p._shards)), _all: addedUp(parts.map((p) => p._all)), indices: byIndex(names, parts.map((p) => p.indices)) };
    },
  });
  for (const path of ['/_stats', '/_stats/:stats', '/:index/_stats', '/:index/_stats/:stats']) app.get(path, stats);

  // entries keyed by index: mappings, settings, index metadata (`GET /{indexes}`, below)
  const keyed = route({
    targets: (catalog, request) => resolveTargets(catalog, accessOf(request), request.query, 'read', request.params.index),
    merge: (_reply, names, answers) => byIndex(names, answers.map((a) => jsonOf(a))),
  });
  for (const path of ['/_mapping', '/:index/_mapping', '/_mappings', '/:index/_mappings', '/_settings', '/_settings/:name', '/:index/_settings', '/:index/_settings/:name']) {
    app.get(path, keyed);
  }

  // a mapping change of several indexes: checked against every index first, then each holder changes its own
  const putMapping = route({
    targets: (catalog, request) => {
      mappingUpdateOf(request.body);
      return resolveTargets(catalog, accessOf(request), request.query, 'write', request.params.index);
    },
    before: (names, request) => checkMappingChange(deps, names, mappingUpdateOf(request.body)),
    merge: () => ({ acknowledged: true }),
  });
  app.put('/:index/_mapping', putMapping);
  app.put('/:index/_mappings', putMapping);

  // `_shards` added up: refresh, flush, force merge
  const shards = (action: 'read' | 'write', expression?: string) =>
    route({
      targets: (catalog, request) => resolveTargets(catalog, accessOf(request), request.query, action, request.params.index ?? expression),
      merge: (_reply, _names, answers) => ({ _shards: addedUp(answers.map((a) => jsonOf(a)._shards)) }),
    });
  for (const name of ['_refresh', '_flush']) {
    app.post(`/${name}`, shards('write'));
    app.post(`/:index/${name}`, shards('write'));
    app.get(`/${name}`, shards('read'));
    app.get(`/:index/${name}`, shards('read'));
  }
  app.post('/_forcemerge', shards('write', '_all'));
  app.post('/:index/_forcemerge', shards('write', '_all'));

  const deleteIndexes = route({
    targets: (catalog, request) => {
      assertNoAliasNamed(catalog, request.params.index);
      return resolveTargets(catalog, accessOf(request), request.query, 'delete', request.params.index, { indexesOnly: true });
    },
    // asked again after a node stopped, a node that deleted its share already has nothing to delete
    url: (request, held) => withParam(namingUrl(request, held), 'ignore_unavailable', 'true'),
    merge: () => ({ acknowledged: true }),
  });
  // `/` (which `/:index` matches too) and a path of one segment starting with `_` are other APIs
  // (the root, `/_alias`, `/_template`...), except `_all`
  const otherApi = (request: ListingRequest) => {
    const index = request.params.index ?? '';
    return index === '' || (index.startsWith('_') && index !== '_all');
  };
  // declared before the GET so that fastify does not derive a HEAD from it
  app.head('/:index', async (request: ListingRequest, reply: FastifyReply) => {
    if (otherApi(request)) return forwardRequest(deps, request, reply);
    const access = accessOf(request);
    const exists = indexExists(await catalogOf(deps), access, request.params.index) || indexExists(await catalogOf(deps, true), access, request.params.index);
    return reply.code(exists ? 200 : 404).send();
  });
  app.get('/:index', (request: ListingRequest, reply: FastifyReply) => (otherApi(request) ? forwardRequest(deps, request, reply) : keyed(request, reply)));
  app.delete('/:index', async (request: ListingRequest, reply: FastifyReply) => {
    if (otherApi(request)) return forwardRequest(deps, request, reply);
    try {
      return await deleteIndexes(request, reply);
    } finally {
      // some indexes may be gone even when a node failed
      deps.routing.invalidate();
    }
  });

  const catIndices = route({
    // without an index, every authenticated actor may ask, and sees only what it may read
    targets: (catalog, request) =>
      request.params.index === undefined
        ? permittedIndices(accessOf(request), 'read', catalog.indexNames())
        : resolveTargets(catalog, accessOf(request), request.query, 'read', request.params.index),
    url: (request, held) => catUrl('indices', request, held, INDICES_COLUMNS),
    merge: (reply, names, answers, request) => {
      const rank = new Map(names.map((name, i) => [name, i]));
      const rows = answers.flatMap((a) => catRows(a, INDICES_COLUMNS));
      rows.sort((a, b) => rank.get(String(a.index))! - rank.get(String(b.index))!);
      return sendCat(reply, INDICES_COLUMNS, rows, request);
    },
  });
  app.get('/_cat/indices', catIndices);
  app.get('/_cat/indices/:index', catIndices);

  const catCount = route({
    targets: (catalog, request) => resolveTargets(catalog, accessOf(request), request.query, 'read', request.params.index),
    url: (request, held) => catUrl('count', request, held, COUNT_COLUMNS),
    merge: (reply, _names, answers, request) => {
      const count = answers.flatMap((a) => catRows(a, COUNT_COLUMNS)).reduce((sum, row) => sum + Number(row.count), 0);
      return sendCat(reply, COUNT_COLUMNS, [{ ...clock(Date.now()), count }], request);
    },
  });
  app.get('/_cat/count', catCount);
  app.get('/_cat/count/:index', catCount);

  registerRoutedFieldCaps(app, deps);
  registerRoutedMget(app, deps);
}

/** what a `_cat` request shows and how: the api process renders it from the holders' rows */
const CAT_DISPLAY = new Set(['format', 'h', 's', 'v', 'help', 'bytes']);

/** `/_cat/{name}/{held}`, asking for every column, in JSON, sizes in bytes. */
function catUrl(name: string, request: ListingRequest, held: readonly string[], columns: readonly CatColumn[]): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query)) {
    if (CAT_DISPLAY.has(key) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, v);
  }
  query.set('format', 'json');
  query.set('bytes', 'b');
  query.set('h', columns.map((c) => c.name).join(','));
  return `/_cat/${name}/${encodeURIComponent(held.join(','))}?${query.toString()}`;
}

/** A holder's `_cat` rows as cells again: numbers and sizes as numbers. */
function catRows(answer: HolderAnswer, columns: readonly CatColumn[]): Array<Record<string, CatCell>> {
  return jsonOf<Array<Record<string, string | null>>>(answer).map((row) => {
    const cells: Record<string, CatCell> = {};
    for (const column of columns) {
      const value = row[column.name] ?? null;
      cells[column.name] = value !== null && (column.kind === 'number' || column.kind === 'bytes') ? Number(value) : value;
    }
    return cells;
  });
}

function sendCat(reply: FastifyReply, columns: readonly CatColumn[], rows: Array<Record<string, CatCell>>, request: ListingRequest): FastifyReply {
  const { contentType, body } = renderCat(columns, rows, request.query);
  return reply.type(contentType).send(body);
}

/**
 * A conflict on any index fails the change before any node makes it, as in one process, which
 * checks every index first: indexes held by one node are checked there, those of several here,
 * against their mappings as their nodes hold them, in the order one process checks them.
 */
async function checkMappingChange(deps: RoutedApiDeps, names: readonly string[], fields: ReturnType<typeof mappingUpdateOf>): Promise<void> {
  const owners = await deps.routing.byOwner(names);
  if (owners.size < 2) return;
  const parts = await withPlacements(
    deps,
    names,
    (held) => Promise.all([...held].map(([url, indices]) => deps.client.json<Record<string, unknown>>(url, '/_internal/mappings', { indices }))),
    { owners },
  );
  const mappings: Record<string, unknown> = Object.assign({}, ...parts);
  for (const name of names) {
    if (!Object.hasOwn(mappings, name)) continue;
    const update = IndexMapping.fromJSON(mappings[name]).update();
    for (const [field, type, parent] of fields) update.declare(field, type, parent);
  }
}
