/**
 * `highlight` in search bodies, with the bodies Grafana's logs panel and Kibana's Discover send:
 * matched words tagged in `_line` (text, by token) and keyword fields (whole), from the query's
 * terms, phrases and patterns.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bulkIndex, request, startTestNode, type TestNode } from '../support/node.js';

type Json = Record<string, unknown>;

const T0 = Date.UTC(2024, 0, 1);
const DOCS = [
  { _ts: T0, _line: 'GET /api/users 200 took 12ms', level: 'info', host: 'web-1' },
  { _ts: T0 + 1000, _line: 'Connection refused: upstream error from db-1, retrying', level: 'error', host: 'web-2' },
  { _ts: T0 + 2000, _line: 'Disk error on /dev/sda1; error count 3', level: 'error', host: 'db-1', tags: ['disk', 'error'] },
  { _ts: T0 + 3000, _line: 'user login failed for <admin> & guest', level: 'warn', host: 'web-1' },
];

describe('highlight', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    assert.equal((await bulkIndex(node.url, 'hl-logs', DOCS)).status, 200);
  });
  after(async () => {
    await node.destroy();
  });

  async function search(body: Json, path = '/hl-logs/_search'): Promise<Json[]> {
    const res = await request<{ hits: { hits: Json[] } }>(`${node.url}${path}`, { body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.hits.hits;
  }
  const highlights = (hits: Json[]) => hits.map((h) => h.highlight);

  it("Grafana's logs query: query_string in a filter, every field, @HIGHLIGHT@ tags", async () => {
    // body from grafana/grafana public/app/plugins/datasource/elasticsearch/QueryBuilder.ts,
    // getLogsQuery() and documentQuery(), sent through _msearch; tags from queryDef.ts highlightTags
    const body = {
      size: 500,
      query: {
        bool: {
          filter: [
            { range: { _ts: { gte: T0, lte: T0 + 60_000, format: 'epoch_millis' } } },
            { query_string: { analyze_wildcard: true, query: 'error' } },
          ],
        },
      },
      sort: [{ _ts: { order: 'desc', unmapped_type: 'boolean' } }, { _doc: { order: 'desc' } }],
      script_fields: {},
      aggs: { '2': { date_histogram: { fixed_interval: '1000ms', field: '_ts', min_doc_count: 0, extended_bounds: { min: T0, max: T0 + 60_000 }, format: 'epoch_millis' } } },
      highlight: { fields: { '*': {} }, pre_tags: ['@HIGHLIGHT@'], post_tags: ['@/HIGHLIGHT@'], fragment_size: 2147483647 },
    };
    const header = { search_type: 'query_then_fetch', ignore_unavailable: true, index: 'hl-*' };
    const res = await request<{ responses: Array<{ hits: { hits: Json[] }; status: number }> }>(`${node.url}/_msearch`, {
      body: `${JSON.stringify(header)}\n${JSON.stringify(body)}\n`,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(res.body.responses.length, 1);
    const item = res.body.responses[0]!;
    assert.equal(item.status, 200, JSON.stringify(item));
    // the bare word searches `_line`: only `_line` is tagged, the keyword `level: error` is not
    // (require_field_match defaults to true)
    assert.deepEqual(highlights(item.hits.hits), [
      { _line: ['Disk @HIGHLIGHT@error@/HIGHLIGHT@ on /dev/sda1; @HIGHLIGHT@error@/HIGHLIGHT@ count 3'] },
      { _line: ['Connection refused: upstream @HIGHLIGHT@error@/HIGHLIGHT@ from db-1, retrying'] },
    ]);
  });

  it("Kibana 7.10 Discover: @kibana-highlighted-field@ tags, keyword fields tagged whole", async () => {
    // highlight block from elastic/kibana src/core_plugins/kibana/common/highlight/highlight_request.js
    // (getHighlightRequest: fields '*', fragment_size 2^31-1); query as Discover builds it for `level:error and disk`
    const hits = await search({
      version: true,
      size: 500,
      sort: [{ _ts: { order: 'desc', unmapped_type: 'boolean' } }],
      stored_fields: ['*'],
      script_fields: {},
      docvalue_fields: [{ field: '_ts', format: 'date_time' }],
      _source: { excludes: [] },
      query: {
        bool: {
          must: [],
          filter: [
            { bool: { filter: [{ bool: { should: [{ match: { level: 'error' } }], minimum_should_match: 1 } }, { bool: { should: [{ match: { _line: 'disk' } }], minimum_should_match: 1 } }] } },
            { range: { _ts: { gte: '2024-01-01T00:00:00.000Z', lte: '2024-01-01T00:15:00.000Z', format: 'strict_date_optional_time' } } },
          ],
          should: [],
          must_not: [],
        },
      },
      highlight: { pre_tags: ['@kibana-highlighted-field@'], post_tags: ['@/kibana-highlighted-field@'], fields: { '*': {} }, fragment_size: 2147483647 },
    });
    assert.deepEqual(highlights(hits), [
      { level: ['@kibana-highlighted-field@error@/kibana-highlighted-field@'], _line: ['@kibana-highlighted-field@Disk@/kibana-highlighted-field@ error on /dev/sda1; error count 3'] },
    ]);
  });

  it('phrases tag the words where they stand together; wildcards and prefixes tag the words they match', async () => {
    const phrase = await search({ query: { match_phrase: { _line: 'upstream error' } }, highlight: { fields: { _line: {} } } });
    assert.deepEqual(highlights(phrase), [{ _line: ['Connection refused: <em>upstream</em> <em>error</em> from db-1, retrying'] }]);
    const wild = await search({ query: { query_string: { query: 'retr* OR l?gin' } }, highlight: { fields: { '_l*': {} } } });
    assert.deepEqual(highlights(wild), [
      { _line: ['user <em>login</em> failed for <admin> & guest'] },
      { _line: ['Connection refused: upstream error from db-1, <em>retrying</em>'] },
    ]);
    const keywordPrefix = await search({ query: { prefix: { host: 'web-' } }, sort: [{ _ts: 'asc' }], highlight: { fields: { host: {}, _line: {} } } });
    assert.deepEqual(highlights(keywordPrefix), [{ host: ['<em>web-1</em>'] }, { host: ['<em>web-2</em>'] }, { host: ['<em>web-1</em>'] }]);
  });

  it('require_field_match: false tags the query words in every text and keyword field', async () => {
    const hits = await search({
      query: { match: { _line: 'error' } },
      sort: [{ _ts: 'asc' }],
      highlight: { require_field_match: false, fields: { '*': {} } },
    });
    assert.deepEqual(highlights(hits), [
      { _line: ['Connection refused: upstream <em>error</em> from db-1, retrying'], level: ['<em>error</em>'] },
      { _line: ['Disk <em>error</em> on /dev/sda1; <em>error</em> count 3'], level: ['<em>error</em>'], tags: ['<em>error</em>'] },
    ]);
  });

  it('fragment_size cuts fragments at word ends; number_of_fragments bounds them, 0 gives the whole value', async () => {
    const query = { match: { _line: 'error' } };
    const hits = await search({ query, size: 1, highlight: { fragment_size: 8, fields: { _line: {} } } });
    assert.deepEqual(highlights(hits), [{ _line: ['<em>error</em> on', '<em>error</em> count'] }]);
    const one = await search({ query, size: 1, highlight: { fragment_size: 8, number_of_fragments: 1, fields: { _line: {} } } });
    assert.deepEqual(highlights(one), [{ _line: ['<em>error</em> on'] }]);
    const whole = await search({ query, size: 1, highlight: { fragment_size: 8, number_of_fragments: 0, fields: { _line: {} } } });
    assert.deepEqual(highlights(whole), [{ _line: ['Disk <em>error</em> on /dev/sda1; <em>error</em> count 3'] }]);
  });

  it('per-field options win over global ones; encoder html escapes the text; no_match_size; highlight_query', async () => {
    const hits = await search({
      query: { match: { _line: 'admin' } },
      highlight: { encoder: 'html', pre_tags: ['['], post_tags: [']'], fields: { _line: { pre_tags: ['<b>'], post_tags: ['</b>'] }, host: { no_match_size: 3 } } },
    });
    assert.deepEqual(highlights(hits), [{ _line: ['user login failed for &lt;<b>admin</b>&gt; &amp; guest'], host: ['web'] }]);
    const byHighlightQuery = await search({
      query: { match: { _line: 'admin' } },
      highlight: { highlight_query: { match: { _line: 'guest' } }, fields: { _line: {} } },
    });
    assert.deepEqual(highlights(byHighlightQuery), [{ _line: ['user login failed for <admin> & <em>guest</em>'] }]);
  });

  it('numbers, must_not clauses and match_all tag nothing; a hit without a match has no highlight key', async () => {
    const hits = await search({
      query: { bool: { must: [{ match_all: {} }], must_not: [{ match: { _line: 'disk' } }] } },
      sort: [{ _ts: 'asc' }],
      highlight: { fields: { '*': {} } },
    });
    assert.equal(hits.length, 3);
    for (const h of hits) assert.equal('highlight' in h, false);
  });

  it('an unknown highlight option is a 400', async () => {
    const res = await request<Json>(`${node.url}/hl-logs/_search`, { body: { highlight: { fields: { '*': {} }, colour: 'red' } } });
    assert.equal(res.status, 400);
    assert.equal((res.body.error as Json).type, 'x_content_parse_exception');
  });
});
