import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../../src/common/errors.js';
import { MAX_OBJECT_DEPTH, buildDocument } from '../../../src/engine/document/index.js';
import { IndexMapping } from '../../../src/engine/mapping/index.js';

const RECEIVED = 1_700_000_000_000;
const ID = { id: 123456789n, lid: 42 };

function parseFailure(fn: () => unknown, reason: RegExp | string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof SvcError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.type, 'mapper_parsing_exception');
    if (typeof reason === 'string') assert.equal(err.reason, reason);
    else assert.match(err.reason, reason);
    return true;
  });
}

test('a typical log line', () => {
  const m = new IndexMapping();
  const doc = buildDocument({ _line: 'GET /x 200', host: 'web-1', status: 200, took: 1.5, ok: true }, m, ID, RECEIVED);
  assert.equal(doc.id, 123456789n);
  assert.equal(doc.lid, 42);
  assert.equal(doc.ts, RECEIVED, 'receive time when _ts is absent');
  assert.deepEqual(doc.fields, [
    { name: '_line', type: 'text', values: ['GET /x 200'] },
    { name: 'host', type: 'keyword', values: ['web-1'] },
    { name: 'status', type: 'long', values: [200] },
    { name: 'took', type: 'double', values: [1.5] },
    { name: 'ok', type: 'boolean', values: [true] },
  ]);
  assert.equal(doc.source, `{"_line":"GET /x 200","host":"web-1","status":200,"took":1.5,"ok":true,"_ts":${RECEIVED},"_lid":42}`);
  assert.deepEqual(m.fields(), [
    { name: '_line', type: 'text' },
    { name: 'host', type: 'keyword' },
    { name: 'status', type: 'long' },
    { name: 'took', type: 'double' },
    { name: 'ok', type: 'boolean' },
    { name: '_ts', type: 'date' },
    { name: '_lid', type: 'long' },
  ]);
});

test('_ts forms', () => {
  const m = new IndexMapping();
  const ts = (value: unknown): number => buildDocument({ _ts: value }, m, ID, RECEIVED).ts;
  assert.equal(ts(1690000000123), 1690000000123);
  assert.equal(ts(1690000000123.7), 1690000000123);
  assert.equal(ts('1690000000123'), 1690000000123);
  assert.equal(ts('2024-05-06T07:08:09.010Z'), Date.UTC(2024, 4, 6, 7, 8, 9, 10));
  assert.equal(ts('2024-05-06T07:08:09+01:00'), Date.UTC(2024, 4, 6, 6, 8, 9));
  assert.equal(ts('2024-05-06T07:08:09'), Date.UTC(2024, 4, 6, 7, 8, 9), 'no zone: UTC');
  assert.equal(ts('2024-05-06'), Date.UTC(2024, 4, 6));
  assert.equal(ts(null), RECEIVED);
  for (const bad of ['soon', '2024-13-01', '', true, {}, [1], 'NaN']) {
    parseFailure(() => buildDocument({ _ts: bad }, m, ID, RECEIVED), /^failed to parse field \[_ts\] of type \[date\]/);
  }
});

test('the stored source: key order kept, _ts and _lid set in place, metadata dropped', () => {
  const m = new IndexMapping();
  const doc = buildDocument(
    { b: 1, _lid: 'whatever', _ts: '2024-01-01T00:00:00Z', _id: 'client-id', a: { y: [1, '2'], x: null }, _index: 'logs', z: 'last' },
    m,
    ID,
    RECEIVED,
  );
  assert.equal(doc.source, `{"b":1,"_lid":42,"_ts":${Date.UTC(2024, 0, 1)},"a":{"y":[1,"2"],"x":null},"z":"last"}`);
  assert.deepEqual(
    doc.fields.map((f) => f.name),
    ['b', 'a.y', 'z'],
  );
  assert.deepEqual(doc.fields[1], { name: 'a.y', type: 'long', values: [1, 2] }, 'values are coerced, the source keeps them as given');
  assert.deepEqual(
    m.fields().map((f) => f.name),
    ['b', '_lid', '_ts', 'a.y', 'z'],
  );
});

test('a __proto__ key is kept as an ordinary key', () => {
  const raw = JSON.parse('{"__proto__":{"polluted":1},"x":1}') as unknown;
  const doc = buildDocument(raw, new IndexMapping(), ID, RECEIVED);
  assert.equal(doc.source, `{"__proto__":{"polluted":1},"x":1,"_ts":${RECEIVED},"_lid":42}`);
  assert.deepEqual(
    doc.fields.map((f) => f.name),
    ['__proto__.polluted', 'x'],
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('objects flatten, arrays give several values, null and empty arrays give none', () => {
  const m = new IndexMapping();
  const doc = buildDocument(
    {
      http: { req: { method: 'GET', headers: { 'x-id': 'abc' } }, status: 200 },
      tags: ['a', 'b', 'a'],
      nested: [[1, 2], [3]],
      objs: [{ k: 'x' }, { k: 'y', n: 1 }],
      nothing: null,
      none: [],
      nulls: [null, null],
      'dotted.key': true,
    },
    m,
    ID,
    RECEIVED,
  );
  assert.deepEqual(doc.fields, [
    { name: 'http.req.method', type: 'keyword', values: ['GET'] },
    { name: 'http.req.headers.x-id', type: 'keyword', values: ['abc'] },
    { name: 'http.status', type: 'long', values: [200] },
    { name: 'tags', type: 'keyword', values: ['a', 'b', 'a'] },
    { name: 'nested', type: 'long', values: [1, 2, 3] },
    { name: 'objs.k', type: 'keyword', values: ['x', 'y'] },
    { name: 'objs.n', type: 'long', values: [1] },
    { name: 'dotted.key', type: 'boolean', values: [true] },
  ]);
  assert.equal(m.fieldType('nothing'), undefined);
  assert.equal(m.fieldType('none'), undefined);
  assert.equal(m.fieldType('nulls'), undefined);
});

test('a mixed array follows its first element, coercing the rest', () => {
  const m = new IndexMapping();
  const doc = buildDocument({ a: [1, '2', 3.7], b: ['x', 5, false] }, m, ID, RECEIVED);
  assert.deepEqual(doc.fields, [
    { name: 'a', type: 'long', values: [1, 2, 3] },
    { name: 'b', type: 'keyword', values: ['x', '5', 'false'] },
  ]);
  parseFailure(() => buildDocument({ c: [1, 'one'] }, m, ID, RECEIVED), /failed to parse field \[c\] of type \[long\]/);
});

test('values follow the mapping of earlier documents', () => {
  const m = new IndexMapping();
  buildDocument({ n: 1, k: 'a', flag: true }, m, ID, RECEIVED);
  const doc = buildDocument({ n: '17', k: 99, flag: 'false', _line: 5 }, m, ID, RECEIVED);
  assert.deepEqual(doc.fields, [
    { name: 'n', type: 'long', values: [17] },
    { name: 'k', type: 'keyword', values: ['99'] },
    { name: 'flag', type: 'boolean', values: [false] },
    { name: '_line', type: 'text', values: ['5'] },
  ]);
  parseFailure(
    () => buildDocument({ n: 'abc' }, m, { id: 9n, lid: 1 }, RECEIVED),
    "failed to parse field [n] of type [long] in document with id '9'. Preview of field's value: 'abc'",
  );
});

test('declared types apply: text fields and dates', () => {
  const m = new IndexMapping();
  m.declare('message', 'text');
  m.declare('at', 'date');
  const doc = buildDocument({ message: 'Hello World', at: '2024-01-01T00:00:00Z' }, m, ID, RECEIVED);
  assert.deepEqual(doc.fields, [
    { name: 'message', type: 'text', values: ['Hello World'] },
    { name: 'at', type: 'date', values: [Date.UTC(2024, 0, 1)] },
  ]);
});

test('documents that are not objects', () => {
  const m = new IndexMapping();
  parseFailure(() => buildDocument(null, m, ID, RECEIVED), 'failed to parse, document is empty');
  parseFailure(() => buildDocument(undefined, m, ID, RECEIVED), 'failed to parse, document is empty');
  for (const bad of [[], [{ a: 1 }], 'text', 42, true]) {
    parseFailure(() => buildDocument(bad, m, ID, RECEIVED), 'failed to parse, document is not an object');
  }
  const empty = buildDocument({}, m, ID, RECEIVED);
  assert.deepEqual(empty.fields, []);
  assert.equal(empty.source, `{"_ts":${RECEIVED},"_lid":42}`);
});

test('bad values and shapes', () => {
  const m = new IndexMapping();
  buildDocument({ leaf: 'x', obj: { a: 1 } }, m, ID, RECEIVED);
  parseFailure(() => buildDocument({ leaf: { inner: 1 } }, m, ID, RECEIVED), /^failed to parse field \[leaf\] of type \[keyword\]/);
  parseFailure(() => buildDocument({ obj: 5 }, m, ID, RECEIVED), 'object mapping for [obj] tried to parse field [obj] as object, but found a concrete value');
  parseFailure(() => buildDocument({ '': 1 }, m, ID, RECEIVED), 'field name cannot be an empty string');
  parseFailure(() => buildDocument({ a: { '': 1 } }, m, ID, RECEIVED), /makes object resolution ambiguous/);
  parseFailure(() => buildDocument({ x: Infinity }, m, ID, RECEIVED), /not a finite number/);
  parseFailure(() => buildDocument({ x: 10n }, m, ID, RECEIVED), /unsupported value of type bigint/);
  parseFailure(() => buildDocument({ _line: { a: 1 } }, m, ID, RECEIVED), /field \[_line\] of type \[text\]/);
  let deep: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < MAX_OBJECT_DEPTH; i++) deep = { d: deep };
  parseFailure(() => buildDocument(deep, m, ID, RECEIVED), `Limit of mapping depth [${MAX_OBJECT_DEPTH}] has been exceeded`);
  let ok: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < MAX_OBJECT_DEPTH - 1; i++) ok = { e: ok };
  assert.equal(buildDocument(ok, m, ID, RECEIVED).fields.length, 1);
});

test('a failing document leaves no new field in the mapping', () => {
  const m = new IndexMapping();
  buildDocument({ n: 1 }, m, ID, RECEIVED);
  const before = m.version;
  parseFailure(() => buildDocument({ fresh: 'x', other: 2, n: 'not a number' }, m, ID, RECEIVED), /field \[n\]/);
  parseFailure(() => buildDocument({ fresh: 'x', _ts: 'never' }, m, ID, RECEIVED), /field \[_ts\]/);
  assert.equal(m.version, before);
  assert.equal(m.fieldType('fresh'), undefined);
  assert.equal(m.fieldType('other'), undefined);
  assert.deepEqual(
    m.fields().map((f) => f.name),
    ['n', '_ts', '_lid'],
  );
});

test('rebuilding from the stored source gives the same document', () => {
  const m = new IndexMapping();
  const raws: unknown[] = [
    { _line: 'First line', status: '200', tags: ['x', 1], t: true, _id: 'drop-me' },
    { _ts: '2023-12-31T23:59:59.999+05:30', nested: { a: [1.5, '2'], b: { c: 'deep' } }, _line: 'Second' },
    { _lid: 99, '1': 'numeric key', status: 201.9, _index: 'other' },
    { __proto__: null, weird: 'a\u2028b\ud800' },
  ];
  raws.forEach((raw, i) => {
    const identity = { id: BigInt(1000 + i), lid: i + 1 };
    const doc = buildDocument(raw, m, identity, RECEIVED + i);
    const again = buildDocument(JSON.parse(doc.source), m, identity, 0);
    assert.deepEqual(again, doc);
  });
  // replay into a fresh mapping, in order, also gives the same documents and mapping
  const fresh = new IndexMapping();
  const m2 = new IndexMapping();
  raws.forEach((raw, i) => {
    const identity = { id: BigInt(1000 + i), lid: i + 1 };
    const doc = buildDocument(raw, m2, identity, RECEIVED + i);
    assert.deepEqual(buildDocument(JSON.parse(doc.source), fresh, identity, 0), doc);
  });
  assert.deepEqual(fresh.toJSON(), m2.toJSON());
});
