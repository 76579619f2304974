/**
 * Listings over several indexes (stats, `_cat`, mappings, settings, index metadata, field
 * capabilities, `_mget`) and actions over several (refresh, flush, force merge, deletion by
 * pattern), to run against a one-process node and a cluster whose indexes are spread over cache
 * nodes: the answers must be the same but for what differs by nature (index uuids and creation
 * times are made in each layout; sizes in bytes depend on when memtables were cut; the layouts
 * have their own numbers of nodes).
 */
import assert from 'node:assert/strict';
import { Client } from '@elastic/elasticsearch';

/** what each layout makes on its own */
const OWN_TO_LAYOUT = new Set(['number_of_nodes', 'number_of_data_nodes', 'uuid', 'index.uuid', 'creation_date', 'index.creation_date', 'creation.date', 'creation.date.string', 'size_in_bytes', 'store.size', 'pri.store.size', 'epoch', 'timestamp']);

export function normalizedListing(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizedListing);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!OWN_TO_LAYOUT.has(k)) out[k] = normalizedListing(v);
  return out;
}

interface Answer {
  status: number;
  contentType: string | null;
  /** the body as sent: key order and text layout count */
  text: string;
}

async function call(url: string, path: string, method = 'GET', body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

/** The answer as compared: JSON re-serialized without what is each layout's own (key order kept). */
function comparable(answer: Answer): unknown {
  const json = answer.contentType?.includes('json') === true && answer.text !== '';
  const body = json ? JSON.stringify(normalizedListing(JSON.parse(answer.text))) : answer.text;
  // uuids named in messages
  return { status: answer.status, contentType: answer.contentType, body: body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>') };
}

export const LISTINGS: Array<{ name: string; path: string; method?: string; body?: unknown }> = [
  { name: 'cat indices, every index', path: '/_cat/indices?v&h=health,status,index,pri,rep,docs.count,docs.deleted' },
  { name: 'cat indices of a pattern, sorted', path: '/_cat/indices/logs-*?h=index,docs.count&s=docs.count:desc,index' },
  { name: 'cat indices in JSON', path: '/_cat/indices/logs-a,logs-c,logs-e?format=json&bytes=b' },
  { name: 'cat indices of nothing', path: '/_cat/indices/nope-*?v' },
  { name: 'cat indices of a missing index', path: '/_cat/indices/nope' },
  { name: 'cat count', path: '/_cat/count?h=count' },
  { name: 'cat count of a pattern', path: '/_cat/count/logs-b,logs-d*?format=json' },
  { name: 'stats', path: '/_stats' },
  { name: 'stats of a pattern, docs only', path: '/logs-*/_stats/docs,segments' },
  { name: 'stats of a list', path: '/logs-a,logs-d/_stats' },
  { name: 'stats of an unknown metric', path: '/nope/_stats/nonsense' },
  { name: 'stats of nothing, allowed', path: '/nope-*/_stats' },
  { name: 'stats of nothing, refused', path: '/nope-*/_stats?allow_no_indices=false' },
  { name: 'mappings', path: '/_mapping' },
  { name: 'mappings of a pattern, typed', path: '/logs-*/_mappings?include_type_name=true' },
  { name: 'mappings of a missing index', path: '/logs-a,nope/_mapping' },
  { name: 'mappings ignoring a missing index', path: '/logs-a,nope,logs-e/_mapping?ignore_unavailable=true' },
  { name: 'settings', path: '/logs-*/_settings?flat_settings=true' },
  { name: 'settings by name', path: '/_settings/index.number_of_*' },
  { name: 'index metadata', path: '/logs-b,logs-c,logs-e' },
  { name: 'index metadata of all', path: '/_all' },
  { name: 'exists, a pattern', path: '/logs-*', method: 'HEAD' },
  { name: 'exists, nothing', path: '/nope-*', method: 'HEAD' },
  { name: 'field caps', path: '/logs-*/_field_caps?fields=*' },
  { name: 'field caps with unmapped', path: '/_field_caps?fields=seq,level,l*,nothing&include_unmapped=true' },
  { name: 'field caps in the body', path: '/logs-a,logs-d/_field_caps', method: 'POST', body: { fields: ['msg*', 'status'] } },
  { name: 'field caps without fields', path: '/nope/_field_caps' },
  {
    name: 'mget over several indexes',
    path: '/_mget?_source_includes=seq,level',
    method: 'POST',
    body: {
      docs: [
        { _index: 'logs-d', _id: 'd3' },
        { _index: 'logs-a', _id: 'd4', _source: ['user'] },
        { _index: 'nope', _id: 'x' },
        { _index: 'logs-b', _id: 'no-such-doc' },
        { _index: 'logs-c', _id: 'd2', _source: false },
        { _index: 'logs-e', _id: 'new-index-doc' },
        { _index: 'logs-a', _id: 'd8' },
      ],
    },
  },
  { name: 'mget by ids', path: '/logs-c/_mget', method: 'POST', body: { ids: ['d6', 'd10', 'nothing', 'd2'] } },
  { name: 'mget of nothing', path: '/_mget', method: 'POST', body: { docs: [] } },
];

export async function listingsOf(url: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const l of LISTINGS) out[l.name] = comparable(await call(url, l.path, l.method, l.body));
  return out;
}

/**
 * Changes to the catalog over several indexes (aliases, settings, mappings) and the listings of
 * it (aliases, resolve, health, cluster state), then actions over several indexes (refresh,
 * flush, force merge, deletion by pattern), through the official client where it has the call.
 */
export async function actionsOf(url: string): Promise<unknown[]> {
  const client = new Client({ node: url });
  const out: unknown[] = [];
  const listed = async () => out.push(comparable(await call(url, '/_cat/indices?h=index,docs.count,docs.deleted&s=index')));
  try {
    // the catalog over indexes of several nodes: aliases, settings and mappings of patterns
    out.push((await client.indices.updateAliases({ body: { actions: [{ add: { index: 'logs-*', alias: 'all-logs' } }, { add: { index: 'logs-b', alias: 'b-only', is_write_index: true } }] } })).body);
    out.push((await client.indices.putAlias({ index: 'logs-c,logs-d', name: 'cd' })).body);
    // an alias may not be named as an index, whichever node holds that index
    out.push(comparable(await call(url, '/fresh', 'PUT', { aliases: { 'logs-a': {} } })));
    out.push(comparable(await call(url, '/fresh', 'PUT', { aliases: { 'logs-b': {} } })));
    out.push((await client.indices.putSettings({ index: 'logs-*', body: { 'index.refresh_interval': '5s' } })).body);
    out.push(comparable(await call(url, '/logs-*/_settings', 'PUT', { 'index.number_of_shards': 2 })));
    out.push((await client.indices.putMapping({ index: 'all-logs', body: { properties: { extra: { type: 'keyword' } } } })).body);
    out.push(comparable(await call(url, '/logs-*/_mapping', 'PUT', { properties: { seq: { type: 'keyword' } } })));
    // a conflict on one index (on one node) changes no index (on any node)
    out.push((await call(url, '/logs-b/_doc/odd-one', 'PUT', { _ts: 1_704_067_200_000, odd: 5 })).status);
    out.push(comparable(await call(url, '/logs-*/_mapping', 'PUT', { properties: { added: { type: 'keyword' }, odd: { type: 'keyword' } } })));
    out.push(comparable(await call(url, '/logs-*/_mapping')));
    // at once: whichever node holds what, the aliases are read from the catalog
    out.push(comparable(await call(url, '/_cat/aliases?v&s=alias,index')));
    out.push((await client.indices.getAlias({ name: 'all-logs' })).body);
    out.push(comparable(await call(url, '/logs-*/_alias')));
    out.push(comparable(await call(url, '/_resolve/index/logs-*,all-*,cd')));
    out.push((await client.indices.getSettings({ index: 'logs-*', name: 'index.refresh_interval' })).body);
    out.push((await client.indices.getMapping({ index: 'cd,logs-e' })).body);
    out.push((await client.mget({ body: { docs: [{ _index: 'b-only', _id: 'd1' }, { _index: 'all-logs', _id: 'd1' }, { _index: 'cd', _id: 'd2' }] } })).body);
    // sources come back as they were written, whatever their strings hold
    const tricky = '{"_ts":1704067200000,"n":1.50,"msg":"a \\"quoted\\" ], {not: an object}, \\\\ and \\u00e9"}';
    out.push((await call(url, '/logs-d/_doc/tricky', 'PUT', tricky)).status);
    const mget = await call(url, '/_mget', 'POST', { docs: [{ _index: 'logs-b', _id: 'd1' }, { _index: 'logs-d', _id: 'tricky' }, { _index: 'logs-a', _id: 'd4' }] });
    assert.ok(mget.text.includes(tricky.slice(1, -1)), mget.text);
    out.push(mget);
    out.push(comparable(await call(url, '/_cluster/health/logs-*?level=indices')));
    out.push(comparable(await call(url, '/_cluster/health/nope?timeout=50ms')));
    out.push(comparable(await call(url, '/_cat/health?h=cluster,status,shards,pri')));
    out.push(comparable(await call(url, '/_cluster/state/metadata/logs-a,cd?flat_settings=true')));
    out.push(comparable(await call(url, '/_cluster/state/metadata,blocks/all-logs')));
    out.push((await client.indices.deleteAlias({ index: 'logs-*', name: 'all-logs' })).body);
    out.push(comparable(await call(url, '/_cat/aliases?v&s=alias,index')));

    out.push((await client.indices.refresh({ index: 'logs-*' })).body);
    out.push((await client.indices.flush({ index: 'logs-a,logs-c,logs-e' })).body);
    out.push(normalizedListing((await client.indices.stats({ index: 'logs-*', metric: 'docs' })).body));
    out.push((await client.indices.forcemerge({ index: 'logs-*' })).body);
    out.push(normalizedListing((await client.cat.indices({ index: 'logs-*', format: 'json', h: 'index,docs.count,segments.count' })).body));
    out.push((await client.mget({ body: { docs: [{ _index: 'logs-e', _id: 'new-index-doc' }, { _index: 'logs-b', _id: 'd1' }] } })).body);
    out.push((await client.fieldCaps({ index: 'logs-*', fields: 'le*' })).body);
    out.push(comparable(await call(url, '/logs-c*,logs-d', 'DELETE')));
    await listed();
    out.push(comparable(await call(url, '/nope-*', 'DELETE')));
    out.push(comparable(await call(url, '/nope', 'DELETE')));
    out.push((await client.indices.delete({ index: 'logs-*' })).body);
    await listed();
    out.push(comparable(await call(url, '/_stats')));
    out.push(comparable(await call(url, '/_mapping')));
  } finally {
    await client.close();
  }
  return out;
}
