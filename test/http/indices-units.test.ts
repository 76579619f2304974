/** The pure parts of the index API: cat tables, units, settings, mapping conversion, templates, alias actions. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALLOW_ALL, type AccessContext } from '../../src/auth/index.js';
import { SvcError } from '../../src/common/index.js';
import type { TemplateRecord } from '../../src/metastore/index.js';
import { parseAliasActions } from '../../src/http/indices/alias-actions.js';
import { renderCat, type CatColumn } from '../../src/http/indices/cat-table.js';
import { fieldsOfMapping, mergeFieldLists } from '../../src/http/indices/mapping-convert.js';
import { filterSettings, indexSettings, nestSettings, normalizeSettings } from '../../src/http/indices/settings.js';
import { composeIndex, parseTemplate, templatesFor } from '../../src/http/indices/template-model.js';
import { bytesFormatter, formatBytesHuman, parseTimeParam } from '../../src/http/indices/units.js';

const errorType = (type: string) => (err: unknown) => err instanceof SvcError && err.type === type;

describe('units', () => {
  it('prints sizes as Elasticsearch does: the largest unit, one decimal, truncated', () => {
    assert.equal(formatBytesHuman(0), '0b');
    assert.equal(formatBytesHuman(1023), '1023b');
    assert.equal(formatBytesHuman(1024), '1kb');
    assert.equal(formatBytesHuman(1536), '1.5kb');
    assert.equal(formatBytesHuman(2047), '1.9kb');
    assert.equal(formatBytesHuman(5 * 1024 ** 2 + 1), '5mb');
    assert.equal(formatBytesHuman(3.25 * 1024 ** 3), '3.2gb');
    assert.equal(bytesFormatter('kb')(2047), '1');
    assert.equal(bytesFormatter('b')(2047), '2047');
    assert.equal(bytesFormatter('m')(3 * 1024 ** 2), '3');
    assert.throws(() => bytesFormatter('zb'), errorType('illegal_argument_exception'));
  });

  it('reads time values', () => {
    assert.equal(parseTimeParam('100ms', 'timeout'), 100);
    assert.equal(parseTimeParam('30s', 'timeout'), 30_000);
    assert.equal(parseTimeParam('1.5m', 'timeout'), 90_000);
    assert.equal(parseTimeParam('0', 'timeout'), 0);
    assert.equal(parseTimeParam('-1', 'timeout'), Infinity);
    assert.throws(() => parseTimeParam('10', 'timeout'), errorType('parse_exception'));
  });
});

describe('cat table', () => {
  const columns: CatColumn[] = [
    { name: 'name', aliases: ['n'], standard: true, description: 'the name' },
    { name: 'count', aliases: ['c'], kind: 'number', standard: true, description: 'how many' },
    { name: 'size', kind: 'bytes', standard: true, description: 'how big' },
    { name: 'hidden', description: 'not shown by default' },
  ];
  const rows = () => [
    { name: 'alpha', count: 5, size: 2048, hidden: 'h1' },
    { name: 'be', count: 120, size: 10, hidden: 'h2' },
    { name: 'gamma', count: 5, size: null, hidden: null },
  ];

  it('aligns text left and numbers right, without trailing spaces after a text column', () => {
    const { body, contentType } = renderCat(columns, rows(), { v: '' });
    assert.match(contentType, /^text\/plain/);
    assert.equal(body, 'name  count size\nalpha     5  2kb\nbe      120  10b\ngamma     5     \n');
    assert.equal(renderCat(columns, rows(), { h: 'count,name' }).body, '  5 alpha\n120 be\n  5 gamma\n');
  });

  it('selects columns by name, alias and wildcard, labelled as asked', () => {
    assert.equal(renderCat(columns, rows(), { h: 'n,hidden', v: 'true' }).body, 'n     hidden\nalpha h1\nbe    h2\ngamma \n');
    assert.equal(renderCat(columns, rows(), { h: 'c*,nothing' }).body, '  5\n120\n  5\n');
  });

  it('sorts by several keys, numbers as numbers, nulls last', () => {
    assert.equal(renderCat(columns, rows(), { h: 'name', s: 'count:desc,name' }).body, 'be\nalpha\ngamma\n');
    assert.equal(renderCat(columns, rows(), { h: 'name', s: 'c,name:desc' }).body, 'gamma\nalpha\nbe\n');
    assert.equal(renderCat(columns, rows(), { h: 'name', s: 'size' }).body, 'be\nalpha\ngamma\n');
    assert.throws(() => renderCat(columns, rows(), { s: 'nope' }), errorType('illegal_argument_exception'));
    assert.throws(() => renderCat(columns, rows(), { s: 'name:up' }), errorType('illegal_argument_exception'));
  });

  it('renders json with string values and nulls, and honours ?bytes', () => {
    const { body, contentType } = renderCat(columns, rows(), { format: 'json', bytes: 'b' });
    assert.match(contentType, /^application\/json/);
    assert.deepEqual(JSON.parse(body), [
      { name: 'alpha', count: '5', size: '2048' },
      { name: 'be', count: '120', size: '10' },
      { name: 'gamma', count: '5', size: null },
    ]);
    assert.throws(() => renderCat(columns, rows(), { format: 'xml' }), errorType('illegal_argument_exception'));
  });

  it('lists the columns with ?help', () => {
    assert.equal(renderCat(columns, rows(), { help: '' }).body.split('\n')[0], 'name   | n | the name');
  });
});

describe('settings', () => {
  it('flattens nested and prefixed forms to index.* keys with string values', () => {
    assert.deepEqual(normalizeSettings({ number_of_shards: 1, index: { refresh_interval: '5s', blocks: { write: false } }, 'index.codec': 'best', list: [1, 'a'], gone: null }), {
      'index.number_of_shards': '1',
      'index.refresh_interval': '5s',
      'index.blocks.write': 'false',
      'index.codec': 'best',
      'index.list': ['1', 'a'],
      'index.gone': null,
    });
    assert.throws(() => normalizeSettings('fast'), errorType('illegal_argument_exception'));
  });

  it('nests flat keys for display and filters by name patterns', () => {
    assert.deepEqual(nestSettings({ 'index.a': '1', 'index.b.c': '2', 'index.b.d': '3' }), { index: { a: '1', b: { c: '2', d: '3' } } });
    assert.deepEqual(nestSettings({ 'index.a': '1', 'index.a.b': '2' }), { index: { a: '1', 'a.b': '2' } });
    const settings = indexSettings({ name: 'x', uuid: 'u', createdAtMs: 5, settings: { 'index.number_of_shards': '9', 'index.refresh_interval': '1s' } });
    assert.equal(settings['index.number_of_shards'], '1', 'fixed settings win over stored ones');
    assert.equal(settings['index.refresh_interval'], '1s');
    assert.deepEqual(filterSettings(settings, 'index.uuid,index.creation_*'), { 'index.creation_date': '5', 'index.uuid': 'u' });
  });
});

describe('mapping conversion', () => {
  const mapping = {
    properties: {
      a: { type: 'integer' },
      obj: { properties: { b: { type: 'ip' }, deep: { type: 'object', properties: { c: { type: 'scaled_float', scaling_factor: 10 } } } } },
      'dotted.name': { type: 'keyword', ignore_above: 256, fields: { raw: { type: 'keyword' } } },
      where: { type: 'geo_point' },
      nested: { type: 'nested', properties: { n: { type: 'date_nanos' } } },
    },
  };

  it('maps Elasticsearch types to ours, in order; skips or refuses the rest', () => {
    assert.deepEqual(fieldsOfMapping(mapping, false), [
      ['a', 'long'],
      ['obj.b', 'keyword'],
      ['obj.deep.c', 'double'],
      ['dotted.name', 'keyword'],
      ['dotted.name.raw', 'keyword', 'dotted.name'],
      ['nested.n', 'date'],
    ]);
    assert.throws(() => fieldsOfMapping(mapping, true), (err: unknown) => err instanceof SvcError && err.reason === 'No handler for type [geo_point] declared on field [where]');
    assert.deepEqual(fieldsOfMapping({ _doc: { properties: { x: { type: 'boolean' } } } }, true), [['x', 'boolean']], 'a type wrapper is unwrapped');
    assert.deepEqual(fieldsOfMapping({ dynamic: false, _source: { enabled: true } }, true), []);
    assert.throws(() => fieldsOfMapping({ properties: {}, colour: 'red' }, true), errorType('mapper_parsing_exception'));
    assert.throws(() => fieldsOfMapping({ properties: { x: 'keyword' } }, false), errorType('mapper_parsing_exception'));
  });

  it('merges layers, the later winning and keeping first places; clashing paths give way', () => {
    assert.deepEqual(
      mergeFieldLists([
        [
          ['a', 'keyword'],
          ['b', 'long'],
          ['c.d', 'long'],
        ],
        [
          ['b', 'double'],
          ['a.x', 'keyword'],
          ['c', 'text'],
          ['e', 'date'],
        ],
      ]),
      [
        ['b', 'double'],
        ['a.x', 'keyword'],
        ['c', 'text'],
        ['e', 'date'],
      ],
    );
  });

  it('merges multi-fields with their field; they go when a later layer makes the field an object', () => {
    assert.deepEqual(
      mergeFieldLists([
        [
          ['m', 'text'],
          ['m.raw', 'keyword', 'm'],
          ['n', 'text'],
          ['n.raw', 'keyword', 'n'],
        ],
        [
          ['m', 'text'],
          ['n.inner', 'long'],
        ],
      ]),
      [
        ['m', 'text'],
        ['m.raw', 'keyword', 'm'],
        ['n.inner', 'long'],
      ],
    );
  });
});

describe('templates', () => {
  const record = (name: string, patterns: string[], order: number, body: object): TemplateRecord => {
    const parsed = parseTemplate(name, { index_patterns: patterns, order, ...body }, undefined);
    return { name, indexPatterns: parsed.indexPatterns, order: parsed.order, body: parsed.body as unknown as TemplateRecord['body'] };
  };

  it('validates names and patterns as Elasticsearch does', () => {
    assert.throws(() => parseTemplate('has space', { index_patterns: ['x'] }, undefined), errorType('invalid_index_template_exception'));
    assert.throws(() => parseTemplate('ok', { index_patterns: ['_x*'] }, undefined), errorType('invalid_index_template_exception'));
    assert.throws(() => parseTemplate('ok', { index_patterns: [1] }, undefined), errorType('illegal_argument_exception'));
    assert.throws(() => parseTemplate('ok', { index_patterns: ['x'], version: 'one' }, undefined), errorType('illegal_argument_exception'));
    assert.equal(parseTemplate('ok', { template: 'legacy-*' }, 4).order, 4, '6.x `template` and ?order= are read');
    assert.equal(parseTemplate('ok', { index_patterns: 'x', order: 2 }, 4).order, 2, 'the body order wins');
  });

  it('matches by pattern and composes by order, the request on top', () => {
    const templates = [
      record('low', ['logs-*'], 0, { settings: { priority: 1, refresh_interval: '1s' }, mappings: { properties: { f: { type: 'keyword' }, g: { type: 'long' } } }, aliases: { '{index}-x': {}, shared: { routing: '1' } } }),
      record('high', ['logs-app-*'], 9, { settings: { refresh_interval: '2s' }, mappings: { properties: { g: { type: 'text' } } }, aliases: { shared: {} } }),
      record('elsewhere', ['metrics-*'], 5, { settings: { codec: 3 } }),
    ];
    const matching = templatesFor('logs-app-1', templates);
    assert.deepEqual(
      matching.map((t) => t.name),
      ['low', 'high'],
    );
    const composed = composeIndex('logs-app-1', matching, { settings: { 'index.priority': '0', 'index.number_of_shards': '4' }, fields: [['h', 'boolean']], aliases: [] });
    assert.deepEqual(composed.settings, { 'index.priority': '0', 'index.refresh_interval': '2s' });
    assert.deepEqual(composed.fields, [
      ['f', 'keyword'],
      ['g', 'text'],
      ['h', 'boolean'],
    ]);
    assert.deepEqual(composed.aliases, [{ alias: 'logs-app-1-x' }, { alias: 'shared' }]);
  });
});

describe('alias actions', () => {
  const catalog = { indexNames: ['a-1', 'a-2', 'b-1'], aliases: new Map([['old', ['a-1', 'a-2']]]) };
  const onlyA: AccessContext = { principalLabel: 'test', enforced: true, can: (_action, index) => index.startsWith('a-') || index === 'mine' };

  it('expands index patterns and alias patterns, within the actor access', () => {
    const actions = parseAliasActions({ actions: [{ add: { index: '*', alias: 'mine', is_write_index: false } }, { remove: { indices: ['a-*'], alias: 'o*' } }] }, onlyA, catalog);
    assert.deepEqual(actions, [
      { type: 'add', index: 'a-1', alias: 'mine', isWriteIndex: false },
      { type: 'add', index: 'a-2', alias: 'mine', isWriteIndex: false },
    ]);
    const all = parseAliasActions({ actions: [{ remove: { indices: ['a-*'], alias: 'o*' } }] }, ALLOW_ALL, catalog);
    assert.deepEqual(all, [
      { type: 'remove', index: 'a-1', alias: 'old', mustExist: false },
      { type: 'remove', index: 'a-2', alias: 'old', mustExist: false },
    ]);
  });

  it('a named index or alias beyond the actor access is a 403; a missing index a 404', () => {
    assert.throws(() => parseAliasActions({ actions: [{ add: { index: 'b-1', alias: 'mine' } }] }, onlyA, catalog), (err: unknown) => err instanceof SvcError && err.status === 403);
    assert.throws(() => parseAliasActions({ actions: [{ add: { index: 'a-1', alias: 'theirs' } }] }, onlyA, catalog), (err: unknown) => err instanceof SvcError && err.status === 403);
    assert.throws(() => parseAliasActions({ actions: [{ add: { index: 'a-9', alias: 'mine' } }] }, onlyA, catalog), errorType('index_not_found_exception'));
  });
});
