/**
 * Fields declared `text` (standard analyzer) with a keyword multi-field, over HTTP with the
 * official client: every full-text query kind on the text field and on its keyword subfield, in
 * the memtable, after a SIGKILL (write-ahead log replay), after `_flush`, after a clean restart
 * and after a merge of segments.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Client } from '@elastic/elasticsearch';
import { exited, request, spawnNode, tempDir, waitReady, type ChildNode } from '../support/node.js';

interface Hit {
  _source: { n: number };
  highlight?: Record<string, string[]>;
}
interface SearchBody {
  hits: { total: { value: number }; hits: Hit[] };
  aggregations?: Record<string, { buckets: Array<{ key: string; doc_count: number }> }>;
}
interface ErrorBody {
  error: { type: string; reason: string; root_cause: Array<{ type: string }> };
  status: number;
}

const INDEX = 'app';

const DOCS = [
  { n: 1, message: "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.", title: 'Fox report' },
  { n: 2, message: 'Connection refused to db-1.example.com:5432 after 3.5s', title: 'Quick note' },
  { n: 3, message: 'quick brown fox' },
  { n: 4, message: 'Brown fox, quick!' },
  { n: 5, message: 'said "hello" to user@example.com' },
  { n: 6, message: 'Zürich ÜBER straße' },
  { n: 7, message: ['first value alpha', 'beta second value'] },
];
const ALL = DOCS.map((d) => d.n);

/** The numbers of the docs a query body matches, ascending. */
async function matching(client: Client, body: Record<string, unknown>, index = INDEX): Promise<number[]> {
  const res = await client.search<SearchBody>({ index, body: { size: 100, ...body } });
  return res.body.hits.hits.map((h) => h._source.n).sort((a, b) => a - b);
}

async function uriMatching(url: string, q: string): Promise<number[]> {
  const res = await request<SearchBody>(`${url}/${INDEX}/_search?size=100&q=${encodeURIComponent(q)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.hits.hits.map((h) => h._source.n).sort((a, b) => a - b);
}

/** Every query kind on `message` (text) and `message.raw` (keyword), with what Elasticsearch finds. */
async function checkQueries(url: string, client: Client, stage: string): Promise<void> {
  // run one after the other when the loop below gets to them; the fillers of the merge (n >= 100) left out
  const q = (query: Record<string, unknown>) => async () => (await matching(client, { query })).filter((n) => n < 100);
  const cases: Array<[string, () => Promise<number[]>, number[]]> = [
    ['match', q({ match: { message: 'quick' } }), [1, 3, 4]],
    ['match is analyzed: case and apostrophes', q({ match: { message: "DOG'S" } }), [1]],
    ['match keeps dotted names and decimals whole', q({ match: { message: 'example.com 3.5s' } }), [2, 5]],
    ['match non-ASCII lowercased', q({ match: { message: 'zürich' } }), [6]],
    ['match operator and', q({ match: { message: { query: 'QUICK foxes', operator: 'and' } } }), [1]],
    ['match minimum_should_match 3', q({ match: { message: { query: 'quick brown fox', minimum_should_match: 3 } } }), [3, 4]],
    ['match minimum_should_match 67%', q({ match: { message: { query: 'quick brown fox', minimum_should_match: '67%' } } }), [1, 3, 4]],
    ['match zero terms: none', q({ match: { message: '!!! ...' } }), []],
    ['match zero terms: all', q({ match: { message: { query: '!!! ...', zero_terms_query: 'all' } } }), ALL],
    ['match_phrase', q({ match_phrase: { message: 'brown fox' } }), [3, 4]],
    ['match_phrase in reverse needs slop 2', q({ match_phrase: { message: { query: 'quick fox', slop: 1 } } }), [3]],
    ['match_phrase slop 2', q({ match_phrase: { message: { query: 'quick fox', slop: 2 } } }), [3, 4]],
    ['match_phrase does not span array values', q({ match_phrase: { message: 'alpha beta' } }), []],
    ['match_phrase within a value of an array', q({ match_phrase: { message: 'beta second' } }), [7]],
    ['match_phrase_prefix', q({ match_phrase_prefix: { message: 'brown fo' } }), [1, 3, 4]],
    ['match_bool_prefix', q({ match_bool_prefix: { message: 'lazy conn' } }), [1, 2]],
    ['match_bool_prefix and', q({ match_bool_prefix: { message: { query: 'connection ref', operator: 'and' } } }), [2]],
    ['multi_match with boost', q({ multi_match: { query: 'quick', fields: ['message', 'title^2'] } }), [1, 2, 3, 4]],
    ['multi_match with a pattern', q({ multi_match: { query: 'quick', fields: ['mess*'] } }), [1, 3, 4]],
    ['multi_match most_fields', q({ multi_match: { query: 'fox note', fields: ['message', 'title'], type: 'most_fields' } }), [1, 2, 3, 4]],
    ['multi_match cross_fields', q({ multi_match: { query: 'report fox', fields: ['message', 'title'], type: 'cross_fields' } }), [1, 3, 4]],
    ['multi_match phrase', q({ multi_match: { query: 'brown fox', fields: ['message', 'title'], type: 'phrase' } }), [3, 4]],
    ['multi_match phrase_prefix', q({ multi_match: { query: 'brown fo', fields: ['message', 'title'], type: 'phrase_prefix' } }), [1, 3, 4]],
    ['multi_match bool_prefix', q({ multi_match: { query: 'connection ref', fields: ['message'], type: 'bool_prefix', operator: 'and' } }), [2]],
    ['query_string with a field', q({ query_string: { query: 'message:foxes' } }), [1]],
    ['query_string default_field', q({ query_string: { query: "dog's AND bone", default_field: 'message' } }), [1]],
    ['query_string fields', q({ query_string: { query: 'quick', fields: ['message', 'title'] } }), [1, 2, 3, 4]],
    ['query_string phrase', q({ query_string: { query: 'message:"brown fox"' } }), [3, 4]],
    ['query_string prefix', q({ query_string: { query: 'message:bro*' } }), [1, 3, 4]],
    ['simple_query_string', q({ simple_query_string: { query: 'foxes | refused', fields: ['message'] } }), [1, 2]],
    ['term matches an indexed token', q({ term: { message: "dog's" } }), [1]],
    ['term is not analyzed', q({ term: { message: 'QUICK' } }), []],
    ['term on the keyword subfield', q({ term: { 'message.raw': 'quick brown fox' } }), [3]],
    ['match on the keyword subfield is exact', q({ match: { 'message.raw': 'Brown fox, quick!' } }), [4]],
    ['match on the keyword subfield, other text', q({ match: { 'message.raw': 'brown fox' } }), []],
    ['prefix on the keyword subfield', q({ prefix: { 'message.raw': 'Conn' } }), [2]],
    ['match_bool_prefix on the keyword subfield', q({ match_bool_prefix: { 'message.raw': 'Brown f' } }), [4]],
    ['keyword subfield holds every value of an array', q({ term: { 'message.raw': 'beta second value' } }), [7]],
    ['query_string on the keyword subfield', q({ query_string: { query: 'message.raw:"quick brown fox"' } }), [3]],
  ];
  for (const [name, found, expected] of cases) assert.deepEqual(await found(), expected, `${stage}: ${name}`);
  assert.deepEqual(await uriMatching(url, 'message:zürich'), [6], `${stage}: q=message:zürich`);
  assert.deepEqual(await uriMatching(url, 'message:QUICK AND message:brown'), [1, 3, 4], `${stage}: q= with AND`);
  assert.deepEqual(await uriMatching(url, 'message.raw:"quick brown fox"'), [3], `${stage}: q= on the keyword subfield`);

  // the keyword subfield aggregates and sorts
  const agg = await client.search<SearchBody>({ index: INDEX, body: { size: 0, aggs: { m: { terms: { field: 'message.raw', size: 20 } } } } });
  const keys = agg.body.aggregations!.m!.buckets.map((b) => b.key).filter((k) => !k.startsWith('filler')).sort();
  assert.deepEqual(keys, ['Brown fox, quick!', 'Connection refused to db-1.example.com:5432 after 3.5s', "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.", 'Zürich ÜBER straße', 'beta second value', 'first value alpha', 'quick brown fox', 'said "hello" to user@example.com'], stage);
  const sorted = await client.search<SearchBody>({ index: INDEX, body: { size: 3, query: { match: { message: 'quick' } }, sort: [{ 'message.raw': 'asc' }] } });
  assert.deepEqual(sorted.body.hits.hits.map((h) => h._source.n), [4, 1, 3], `${stage}: sort on the keyword subfield`);

  // highlighting finds the words with the same analyzer
  const hl = await client.search<SearchBody>({ index: INDEX, body: { query: { match: { message: "dog's" } }, highlight: { fields: { message: {} } } } });
  assert.deepEqual(hl.body.hits.hits[0]!.highlight, { message: ["The 2 QUICK Brown-Foxes jumped over the lazy <em>dog's</em> bone."] }, stage);
}

describe('text fields with the standard analyzer and keyword multi-fields', () => {
  const dataDir = tempDir('svc-text-');
  let node: ChildNode;
  let client: Client;

  async function start(): Promise<void> {
    node = await spawnNode(dataDir);
    await waitReady(node.url);
    client = new Client({ node: node.url });
  }

  async function stop(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    await client.close();
    node.child.kill(signal);
    await exited(node.child);
  }

  before(start);
  after(async () => {
    await stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the index with the official client and reports text with its subfield', async () => {
    const created = await client.indices.create({
      index: INDEX,
      body: {
        mappings: {
          properties: {
            message: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 256 } } },
            title: { type: 'text', analyzer: 'standard' },
          },
        },
      },
    });
    assert.equal(created.body.acknowledged, true);
    const mapping = await client.indices.getMapping({ index: INDEX });
    assert.deepEqual(mapping.body[INDEX].mappings.properties, {
      message: { type: 'text', fields: { raw: { type: 'keyword' } } },
      title: { type: 'text' },
    });
    const caps = await client.fieldCaps({ index: INDEX, fields: 'message*' });
    assert.deepEqual(caps.body.fields, {
      message: { text: { type: 'text', searchable: true, aggregatable: false } },
      'message.raw': { keyword: { type: 'keyword', searchable: true, aggregatable: true } },
    });
  });

  it('indexes documents and answers every query kind from memory', async () => {
    const body = DOCS.flatMap((doc) => [{ index: { _index: INDEX } }, doc]);
    const res = await client.bulk({ body });
    assert.equal(res.body.errors, false);
    await checkQueries(node.url, client, 'memtable');
  });

  it('refuses aggregations and sorts on the text field and documents that hold the multi-field', async () => {
    const agg = await request<ErrorBody>(`${node.url}/${INDEX}/_search`, { body: { size: 0, aggs: { m: { terms: { field: 'message' } } } } });
    assert.equal(agg.status, 400);
    assert.equal(agg.body.error.root_cause[0]!.type, 'illegal_argument_exception');
    assert.match(agg.body.error.reason, /Text fields are not optimised .* set fielddata=true on \[message\]/);
    const sort = await request<ErrorBody>(`${node.url}/${INDEX}/_search`, { body: { sort: [{ message: 'asc' }] } });
    assert.equal(sort.status, 400);
    assert.equal(sort.body.error.type, 'illegal_argument_exception');
    assert.match(sort.body.error.reason, /Text fields are not optimised .* \[message\]/);
    const direct = await client.bulk({ body: [{ index: { _index: INDEX } }, { n: 99, 'message.raw': 'sneaky' }] });
    assert.equal(direct.body.errors, true);
    assert.equal(direct.body.items[0].index.error.type, 'mapper_parsing_exception');
    assert.match(direct.body.items[0].index.error.reason, /Existing mapping for \[message\] must be of type object but found \[text\]/);
  });

  it('answers the same after a SIGKILL (write-ahead log replay)', async () => {
    await stop('SIGKILL');
    await start();
    await checkQueries(node.url, client, 'replayed');
  });

  it('answers the same from a segment file after _flush and after a clean restart', async () => {
    await client.indices.flush({ index: INDEX });
    await checkQueries(node.url, client, 'flushed');
    await stop('SIGTERM');
    await start();
    await checkQueries(node.url, client, 'restarted');
  });

  it('answers the same after the segments are merged', async () => {
    // eight flushed segments make a merge
    for (let i = 0; i < 8; i++) {
      await client.bulk({ body: [{ index: { _index: INDEX } }, { n: 100 + i, message: `filler ${i}` }] });
      await client.indices.flush({ index: INDEX });
    }
    const deadline = Date.now() + 30_000;
    for (;;) {
      const stats = await request<{ _all: { primaries: { segments: { count: number } } } }>(`${node.url}/${INDEX}/_stats/segments`);
      if (stats.body._all.primaries.segments.count < 9) break;
      assert.ok(Date.now() < deadline, 'segments were not merged in time');
      await new Promise((r) => setTimeout(r, 100));
    }
    const fillers = await matching(client, { query: { match: { message: 'filler' } } });
    assert.deepEqual(fillers, [100, 101, 102, 103, 104, 105, 106, 107]);
    await checkQueries(node.url, client, 'merged');
  });

  it('takes text fields and multi-fields from an index template', async () => {
    await client.indices.putTemplate({
      name: 'tlogs',
      body: { index_patterns: ['tlogs-*'], mappings: { properties: { msg: { type: 'text', fields: { kw: { type: 'keyword' } } } } } },
    });
    const res = await client.bulk({
      body: [{ index: { _index: 'tlogs-1' } }, { n: 1, msg: "Jim's B2B deal" }, { index: { _index: 'tlogs-1' } }, { n: 2, msg: 'jim deal' }],
    });
    assert.equal(res.body.errors, false);
    assert.deepEqual(await matching(client, { query: { match: { msg: "jim's" } } }, 'tlogs-1'), [1]);
    assert.deepEqual(await matching(client, { query: { match: { msg: 'b2b' } } }, 'tlogs-1'), [1]);
    assert.deepEqual(await matching(client, { query: { term: { 'msg.kw': 'jim deal' } } }, 'tlogs-1'), [2]);
    const mapping = await client.indices.getMapping({ index: 'tlogs-1' });
    assert.deepEqual(mapping.body['tlogs-1'].mappings.properties.msg, { type: 'text', fields: { kw: { type: 'keyword' } } });
  });

  it('a multi-field added by PUT _mapping indexes the documents written after it', async () => {
    await client.indices.create({ index: 'late', body: { mappings: { properties: { note: { type: 'text' } } } } });
    const first = Array.from({ length: 3 }, (_, i) => [{ index: { _index: 'late' } }, { n: i, note: `Same Note` }]).flat();
    assert.equal((await client.bulk({ body: first })).body.errors, false);
    await client.indices.putMapping({ index: 'late', body: { properties: { note: { type: 'text', fields: { raw: { type: 'keyword' } } } } } });
    const later = Array.from({ length: 3 }, (_, i) => [{ index: { _index: 'late' } }, { n: 10 + i, note: `Same Note` }]).flat();
    assert.equal((await client.bulk({ body: later })).body.errors, false);
    assert.deepEqual(await matching(client, { query: { term: { 'note.raw': 'Same Note' } } }, 'late'), [10, 11, 12]);
    assert.deepEqual(await matching(client, { query: { match: { note: 'same' } } }, 'late'), [0, 1, 2, 10, 11, 12]);
    const mapping = await client.indices.getMapping({ index: 'late' });
    assert.deepEqual(mapping.body.late.mappings.properties.note, { type: 'text', fields: { raw: { type: 'keyword' } } });
  });

  it('refuses bad multi-field definitions', async () => {
    const bad = await request<ErrorBody>(`${node.url}/badmf`, {
      method: 'PUT',
      body: { mappings: { properties: { m: { type: 'text', fields: { raw: { type: 'geo_point' } } } } } },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.type, 'mapper_parsing_exception');
    assert.match(bad.body.error.reason, /No handler for type \[geo_point\] declared on field \[raw\]/);
    const untyped = await request<ErrorBody>(`${node.url}/badmf`, { method: 'PUT', body: { mappings: { properties: { m: { type: 'text', fields: { raw: {} } } } } } });
    assert.equal(untyped.status, 400);
    assert.match(untyped.body.error.reason, /No type specified for field \[raw\]/);
  });
});
