import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexMapping, MAPPING_RESPONSE_MAX_FIELDS, toProperties } from '../../../src/engine/mapping/index.js';

test('dotted names become nested properties in first-occurrence order', () => {
  const m = new IndexMapping();
  const u = m.update();
  u.valueFor('_line', 'x');
  u.valueFor('http.status', 200);
  u.valueFor('host', 'a');
  u.valueFor('http.req.method', 'GET');
  u.valueFor('_ts', 1);
  u.commit();
  const props = toProperties(m.fields());
  assert.deepEqual(props, {
    _line: { type: 'text' },
    http: { properties: { status: { type: 'long' }, req: { properties: { method: { type: 'keyword' } } } } },
    host: { type: 'keyword' },
    _ts: { type: 'date' },
  });
  assert.deepEqual(Object.keys(props), ['_line', 'http', 'host', '_ts']);
});

test('at most the first 1,000 fields are listed', () => {
  const m = new IndexMapping();
  const u = m.update();
  for (let i = 0; i < 1500; i++) u.valueFor(`f${i}`, i);
  u.commit();
  assert.equal(MAPPING_RESPONSE_MAX_FIELDS, 1000);
  const props = toProperties(m.fields());
  const keys = Object.keys(props);
  assert.equal(keys.length, 1000);
  assert.equal(keys[0], 'f0');
  assert.equal(keys[999], 'f999');
  assert.equal(Object.keys(toProperties(m.fields(), 3)).length, 3);
});

test('multi-fields are listed under their field', () => {
  const m = new IndexMapping();
  m.declare('http.message', 'text');
  m.declare('http.message.raw', 'keyword', 'http.message');
  m.declare('host', 'keyword');
  const props = toProperties(m.fields(), undefined, (name) => m.multiFieldParent(name));
  assert.deepEqual(props, {
    http: { properties: { message: { type: 'text', fields: { raw: { type: 'keyword' } } } } },
    host: { type: 'keyword' },
  });
});
