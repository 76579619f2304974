/**
 * The start-up requests of Filebeat 7.10, Logstash 7.10 (logstash-output-elasticsearch 10.x)
 * and Grafana's Elasticsearch data source, replayed in their order with their bodies, and the
 * decisions each tool takes from the answers checked the way the tool checks them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ndjson, request, startTestNode, type TestNode } from '../support/node.js';

/** The legacy template Filebeat 7.10.2 loads without ILM (abridged: one field of each kind it uses). */
const FILEBEAT_TEMPLATE = {
  index_patterns: ['filebeat-7.10.2-*'],
  order: 1,
  settings: {
    index: {
      mapping: { total_fields: { limit: 10000 } },
      refresh_interval: '5s',
      number_of_shards: 1,
      max_docvalue_fields_search: 200,
      query: { default_field: ['message', 'tags', 'agent.name', 'host.name', 'log.file.path'] },
    },
  },
  mappings: {
    _meta: { beat: 'filebeat', version: '7.10.2' },
    dynamic_templates: [{ labels: { path_match: 'labels.*', mapping: { type: 'keyword' }, match_mapping_type: 'string' } }, { strings_as_keyword: { mapping: { ignore_above: 1024, type: 'keyword' }, match_mapping_type: 'string' } }],
    date_detection: false,
    properties: {
      '@timestamp': { type: 'date' },
      agent: { properties: { hostname: { ignore_above: 1024, type: 'keyword' }, name: { ignore_above: 1024, type: 'keyword' }, version: { ignore_above: 1024, type: 'keyword' } } },
      ecs: { properties: { version: { ignore_above: 1024, type: 'keyword' } } },
      host: { properties: { name: { ignore_above: 1024, type: 'keyword' }, ip: { type: 'ip' }, hostname: { type: 'alias', path: 'agent.hostname' } } },
      log: { properties: { offset: { type: 'long' }, file: { properties: { path: { ignore_above: 1024, type: 'keyword' } } }, level: { ignore_above: 1024, type: 'keyword' } } },
      message: { norms: false, type: 'text' },
      input: { properties: { type: { ignore_above: 1024, type: 'keyword' } } },
      tags: { ignore_above: 1024, type: 'keyword' },
      labels: { type: 'object' },
      source: { properties: { geo: { properties: { location: { type: 'geo_point' } } }, port: { type: 'long' }, bytes: { type: 'long' } } },
      event: { properties: { duration: { type: 'long' }, created: { type: 'date' }, risk_score: { type: 'float' } } },
      http: { properties: { response: { properties: { status_code: { type: 'long' } } } } },
      kubernetes: { properties: { labels: { type: 'object' }, pod: { properties: { uid: { ignore_above: 1024, type: 'keyword' } } } } },
      system: { properties: { cpu: { properties: { pct: { scaling_factor: 1000, type: 'scaled_float' } } } } },
      apache: { properties: { error: { properties: { module: { ignore_above: 1024, type: 'keyword' } } } } },
      nginx: { properties: { ingress_controller: { properties: { upstream: { properties: { response: { properties: { length: { type: 'long' } } } } } } } } },
      fileset: { properties: { name: { ignore_above: 1024, type: 'keyword' } } },
      docker: { properties: { container: { properties: { labels: { type: 'object' } } } } },
      user_agent: { properties: { original: { ignore_above: 1024, type: 'keyword', fields: { text: { norms: false, type: 'text' } } } } },
      azure: { properties: { activitylogs: { properties: { properties: { type: 'flattened' } } } } },
    },
  },
};

/** logstash-output-elasticsearch 10.x, templates/ecs-disabled/elasticsearch-7x.json */
const LOGSTASH_TEMPLATE = {
  index_patterns: 'logstash-*',
  version: 60001,
  settings: { 'index.refresh_interval': '5s', number_of_shards: 1 },
  mappings: {
    dynamic_templates: [
      { message_field: { path_match: 'message', match_mapping_type: 'string', mapping: { type: 'text', norms: false } } },
      {
        string_fields: {
          match: '*',
          match_mapping_type: 'string',
          mapping: { type: 'text', norms: false, fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
        },
      },
    ],
    properties: {
      '@timestamp': { type: 'date' },
      '@version': { type: 'keyword' },
      geoip: {
        dynamic: true,
        properties: { ip: { type: 'ip' }, location: { type: 'geo_point' }, latitude: { type: 'half_float' }, longitude: { type: 'half_float' } },
      },
    },
  },
};

interface Features {
  features?: { ilm?: { available: boolean; enabled: boolean } };
}
interface BulkBody {
  errors: boolean;
  items: Array<{ index: { _index: string; status: number } }>;
}
type Mappings = Record<string, { mappings: { properties?: Record<string, { type?: string; properties?: Record<string, { type?: string }> }> } }>;

describe('client start-up probes', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(async () => {
    await node.destroy();
  });

  it('Filebeat 7.10: version, license, ILM check, template check and load, then bulk', async () => {
    const url = node.url;
    const root = await request<{ version: { number: string } }>(`${url}/`);
    assert.equal(root.status, 200);
    assert.equal(root.body.version.number, '7.10.2');

    // x-pack licenser: GET /_license?human=false; 400/405 would mean OSS, anything but 200 an error
    const license = await request<{ license: { uid: string; type: string; status: string } }>(`${url}/_license?human=false`);
    assert.equal(license.status, 200);
    assert.equal(license.body.license.type, 'basic');
    assert.equal(license.body.license.status, 'active');
    assert.ok(license.body.license.uid.length > 0);

    // setup.ilm.enabled: auto uses ILM only when features.ilm is available and enabled
    const xpack = await request<Features>(`${url}/_xpack`);
    assert.equal(xpack.status, 200);
    const ilm = xpack.body.features?.ilm;
    assert.ok(ilm, 'features.ilm is present');
    assert.equal(ilm.available && ilm.enabled, false, 'Filebeat goes on without ILM');

    // 7.5 and later: GET /_cat/templates/<name>, exists when 200 and the body names it; earlier 7.x: HEAD /_template/<name>
    const catBefore = await fetch(`${url}/_cat/templates/filebeat-7.10.2`);
    assert.equal(catBefore.status, 200);
    assert.equal((await catBefore.text()).includes('filebeat-7.10.2'), false);
    assert.equal((await fetch(`${url}/_template/filebeat-7.10.2`, { method: 'HEAD' })).status, 404);

    const put = await request(`${url}/_template/filebeat-7.10.2`, { method: 'PUT', body: FILEBEAT_TEMPLATE, headers: { 'content-type': 'application/json' } });
    assert.ok(put.status < 300, `template load answered ${put.status}: ${JSON.stringify(put.body)}`);

    const index = 'filebeat-7.10.2-2024.01.13';
    const docs = [
      {
        '@timestamp': '2024-01-13T10:00:00.000Z',
        message: 'GET /index.html 200 Mozilla',
        log: { offset: 0, file: { path: '/var/log/nginx/access.log' } },
        input: { type: 'log' },
        ecs: { version: '1.6.0' },
        host: { name: 'web-1', ip: ['10.0.0.5', 'fe80::1'] },
        agent: { name: 'web-1', version: '7.10.2', hostname: 'web-1' },
        tags: ['nginx', 'access'],
        event: { risk_score: 1.5 },
      },
      { '@timestamp': '2024-01-13T10:00:01.000Z', message: 'upstream timed out', log: { offset: 120, file: { path: '/var/log/nginx/error.log' } }, source: { port: 443 } },
    ];
    const lines: unknown[] = [];
    for (const doc of docs) lines.push({ index: { _index: index } }, doc);
    const bulk = await request<BulkBody>(`${url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.status, 200);
    assert.equal(bulk.body.errors, false, JSON.stringify(bulk.body));

    const props = (await request<Mappings>(`${url}/${index}/_mapping`)).body[index]!.mappings.properties!;
    assert.equal(props.message!.type, 'text', 'the template made message a text field');
    assert.equal(props['@timestamp']!.type, 'date');
    assert.equal(props.host!.properties!.ip!.type, 'keyword');
    const found = await request<{ hits: { total: { value: number } } }>(`${url}/${index}/_search?q=message:timed`);
    assert.equal(found.body.hits.total.value, 1);

    // the next start finds the template and does not load it again
    const catAfter = await fetch(`${url}/_cat/templates/filebeat-7.10.2`);
    assert.equal(catAfter.status, 200);
    assert.ok((await catAfter.text()).includes('filebeat-7.10.2'));
    assert.equal((await fetch(`${url}/_template/filebeat-7.10.2`, { method: 'HEAD' })).status, 200);
  });

  it('Logstash 7.10: health check, version, license, ILM check, template check and load, then bulk', async () => {
    const url = node.url;
    assert.equal((await fetch(`${url}/`, { method: 'HEAD' })).status, 200);
    assert.equal((await request<{ version: { number: string } }>(`${url}/`)).body.version.number, '7.10.2');

    // license checker: warns unless license.status is active
    const license = await request<{ license: { status: string } }>(`${url}/_license`);
    assert.equal(license.body.license.status, 'active');

    // ilm_enabled => auto: ILM only if features.ilm.available and .enabled
    const xpack = await request<Features>(`${url}/_xpack`);
    assert.equal(xpack.status, 200);
    assert.equal(xpack.body.features!.ilm!.enabled, false);

    // template_install: exists? is a HEAD (2xx means present), then PUT
    assert.equal((await fetch(`${url}/_template/logstash`, { method: 'HEAD' })).status, 404);
    assert.equal((await request(`${url}/_template/logstash`)).status, 404);
    const put = await request(`${url}/_template/logstash`, { method: 'PUT', body: LOGSTASH_TEMPLATE, headers: { 'content-type': 'application/json' } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal((await fetch(`${url}/_template/logstash`, { method: 'HEAD' })).status, 200);

    // the output's bulk action line for Elasticsearch 7
    const body = ndjson([
      { index: { _id: null, _index: 'logstash-2024.01.13', routing: null, _type: '_doc' } },
      { '@timestamp': '2024-01-13T10:00:00.000Z', '@version': '1', message: 'user logged in', host: 'app-1', geoip: { ip: '8.8.8.8', latitude: 37.7 } },
    ]);
    const bulk = await request<BulkBody>(`${url}/_bulk`, { body, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.body.errors, false, JSON.stringify(bulk.body));
    const props = (await request<Mappings>(`${url}/logstash-2024.01.13/_mapping`)).body['logstash-2024.01.13']!.mappings.properties!;
    assert.equal(props['@version']!.type, 'keyword');
    assert.equal(props.geoip!.properties!.latitude!.type, 'double');
    assert.equal(props.geoip!.properties!.location, undefined, 'geo_point is not indexed');
    const settings = await request<Record<string, { settings: { index: { refresh_interval: string } } }>>(`${url}/logstash-2024.01.13/_settings`);
    assert.equal(settings.body['logstash-2024.01.13']!.settings.index.refresh_interval, '5s');
  });

  it("Grafana's Elasticsearch data source: field lists from _mapping, per pattern and per daily index", async () => {
    const url = node.url;
    for (const [index, doc] of [
      ['metrics-2024.01.12', { '@timestamp': '2024-01-12T00:00:00Z', host: 'a', cpu: 0.5, up: true }],
      ['metrics-2024.01.13', { '@timestamp': '2024-01-13T00:00:00Z', host: 'b', cpu: 0.7, mem: 1024, up: false }],
    ] as const) {
      await request(`${url}/_bulk`, { body: ndjson([{ index: { _index: index } }, doc]), headers: { 'content-type': 'application/x-ndjson' } });
    }
    // "Save & test" and the query editor: GET /<pattern>/_mapping, then each index's properties walked for types
    const res = await request<Mappings>(`${url}/metrics-*/_mapping`);
    assert.equal(res.status, 200);
    const types = new Map<string, string>();
    for (const index of Object.values(res.body)) {
      for (const [name, field] of Object.entries(index.mappings.properties ?? {})) if (field.type) types.set(name, field.type);
    }
    assert.equal(types.get('cpu'), 'double');
    assert.equal(types.get('mem'), 'long');
    assert.equal(types.get('up'), 'boolean');
    assert.equal(types.get('host'), 'keyword');
    assert.equal(types.get('_ts'), 'date', 'a date field for the time field picker');
    // daily pattern [metrics-]YYYY.MM.DD: newest index first, falling back on a 404
    const today = await request(`${url}/metrics-2024.01.14/_mapping`);
    assert.equal(today.status, 404);
    const yesterday = await request<Mappings>(`${url}/metrics-2024.01.13/_mapping`);
    assert.equal(yesterday.status, 200);
    assert.ok(yesterday.body['metrics-2024.01.13']!.mappings.properties!.mem);
  });
});
