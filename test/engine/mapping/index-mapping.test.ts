import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../../src/common/errors.js';
import { IndexMapping, MAX_FIELDS, isFieldType } from '../../../src/engine/mapping/index.js';

function fails(fn: () => unknown, type: string, reason: RegExp | string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof SvcError, `expected SvcError, got ${String(err)}`);
    assert.equal(err.status, 400);
    assert.equal(err.type, type);
    if (typeof reason === 'string') assert.equal(err.reason, reason);
    else assert.match(err.reason, reason);
    return true;
  });
}

test('dynamic types fixed on first sight, in first-occurrence order', () => {
  const m = new IndexMapping();
  const u = m.update();
  assert.equal(u.valueFor('host', 'web-1'), 'web-1');
  assert.equal(u.valueFor('count', 3), 3);
  assert.equal(u.valueFor('ratio', 0.5), 0.5);
  assert.equal(u.valueFor('ok', false), false);
  assert.equal(u.valueFor('_line', 'x'), 'x');
  assert.equal(u.valueFor('when', '2024-01-01'), '2024-01-01', 'strings are never detected as dates');
  assert.equal(m.size, 0, 'nothing applied before commit');
  assert.equal(u.commit(), true);
  assert.deepEqual(m.fields(), [
    { name: 'host', type: 'keyword' },
    { name: 'count', type: 'long' },
    { name: 'ratio', type: 'double' },
    { name: 'ok', type: 'boolean' },
    { name: '_line', type: 'text' },
    { name: 'when', type: 'keyword' },
  ]);
  // later values follow the fixed type
  const v = m.update();
  assert.equal(v.valueFor('count', 2.9), 2, 'a fraction in a long field is truncated');
  assert.equal(v.valueFor('host', 42), '42');
  assert.equal(v.commit(), false);
});

test('built-in fields have fixed types, also before first sight', () => {
  const m = new IndexMapping();
  assert.equal(m.fieldType('_line'), 'text');
  assert.equal(m.fieldType('_ts'), 'date');
  assert.equal(m.fieldType('_lid'), 'long');
  assert.equal(m.mappedType('_line'), undefined);
  assert.deepEqual(m.fields(), []);
  const u = m.update();
  assert.equal(u.valueFor('_line', 123), '123', '_line is text even when the first value is a number');
  u.commit();
  assert.deepEqual(m.fields(), [{ name: '_line', type: 'text' }]);
});

test('huge integers and non-integers are doubles', () => {
  const m = new IndexMapping();
  const u = m.update();
  u.valueFor('big', 1e300);
  u.valueFor('neg', -7);
  u.valueFor('frac', -0.25);
  u.commit();
  assert.equal(m.fieldType('big'), 'double');
  assert.equal(m.fieldType('neg'), 'long');
  assert.equal(m.fieldType('frac'), 'double');
});

test('version changes only when fields are added', () => {
  const m = new IndexMapping();
  assert.equal(m.version, 0);
  const u = m.update();
  u.valueFor('a', 1);
  u.commit();
  assert.equal(m.version, 1);
  const again = m.update();
  again.valueFor('a', 2);
  assert.equal(again.commit(), false);
  assert.equal(m.version, 1);
  assert.equal(m.declare('a', 'long'), false);
  assert.equal(m.version, 1);
  assert.equal(m.declare('b', 'date'), true);
  assert.equal(m.version, 2);
});

test('an update that is not committed leaves nothing behind', () => {
  const m = new IndexMapping();
  const u = m.update();
  u.valueFor('a', 1);
  assert.equal(u.typeOf('a'), 'long');
  assert.deepEqual([...u.newFields], [['a', 'long']]);
  assert.equal(m.fieldType('a'), undefined);
  assert.equal(m.version, 0);
});

test('declare: explicit types and conflicts', () => {
  const m = new IndexMapping();
  assert.equal(m.declare('message', 'text'), true);
  assert.equal(m.declare('at', 'date'), true);
  assert.equal(m.fieldType('message'), 'text');
  const u = m.update();
  assert.equal(u.valueFor('at', '2024-01-01T00:00:00Z'), Date.UTC(2024, 0, 1));
  assert.equal(u.valueFor('at', 1700000000000), 1700000000000);
  fails(() => m.declare('message', 'keyword'), 'illegal_argument_exception', 'mapper [message] cannot be changed from type [text] to [keyword]');
  fails(() => m.declare('_line', 'keyword'), 'illegal_argument_exception', 'mapper [_line] cannot be changed from type [text] to [keyword]');
  fails(() => m.declare('_ts', 'long'), 'illegal_argument_exception', /cannot be changed from type \[date\] to \[long\]/);
  assert.equal(m.declare('_ts', 'date'), true, 'a built-in may be declared with its own type');
  fails(() => m.declare('_id', 'keyword'), 'illegal_argument_exception', /metadata field/);
  fails(() => m.declare('', 'keyword'), 'illegal_argument_exception', 'field name cannot be an empty string');
  fails(() => m.declare('a..b', 'keyword'), 'illegal_argument_exception', /makes object resolution ambiguous/);
  fails(() => m.declare('message.x', 'long'), 'illegal_argument_exception', /non object mapping \[message\]/);
  m.declare('obj.inner', 'long');
  fails(() => m.declare('obj', 'keyword'), 'illegal_argument_exception', /non object mapping \[obj\]/);
  assert.ok(isFieldType('double'));
  assert.ok(!isFieldType('object'));
});

test('a leaf where an object is, and an object where a leaf is, are refused', () => {
  const m = new IndexMapping();
  const u = m.update('7');
  u.valueFor('a.b', 1);
  u.commit();
  assert.ok(m.isObject('a'));
  fails(() => m.update().valueFor('a', 'x'), 'mapper_parsing_exception', 'object mapping for [a] tried to parse field [a] as object, but found a concrete value');
  fails(() => m.update('7').enterObject('a.b', { c: 1 }), 'mapper_parsing_exception', /^failed to parse field \[a\.b\] of type \[long\] in document with id '7'/);
  fails(() => m.update().valueFor('a.b.c', 1), 'mapper_parsing_exception', /failed to parse field \[a\.b\] of type \[long\]/);
  // within one update too
  const w = m.update();
  w.valueFor('x', 1);
  fails(() => w.valueFor('x.y', 1), 'mapper_parsing_exception', /failed to parse field \[x\] of type \[long\]/);
  const z = m.update();
  z.valueFor('p.q', 1);
  fails(() => z.valueFor('p', 1), 'mapper_parsing_exception', /object mapping for \[p\]/);
  fails(() => m.update().enterObject('_line', {}), 'mapper_parsing_exception', /field \[_line\] of type \[text\]/);
});

test('bad field names in documents', () => {
  const m = new IndexMapping();
  fails(() => m.update().valueFor('', 1), 'mapper_parsing_exception', 'field name cannot be an empty string');
  fails(() => m.update().valueFor('a.', 1), 'mapper_parsing_exception', /makes object resolution ambiguous/);
  fails(() => m.update().valueFor(' ', 1), 'mapper_parsing_exception', /only whitespace/);
});

test('the field limit applies at commit and applies nothing when exceeded', () => {
  const m = new IndexMapping();
  const u = m.update();
  for (let i = 0; i < MAX_FIELDS - 1; i++) u.valueFor(`f${i}`, 1);
  u.commit();
  assert.equal(m.size, MAX_FIELDS - 1);
  const over = m.update();
  over.valueFor('one', 1);
  over.valueFor('two', 1);
  fails(() => over.commit(), 'illegal_argument_exception', `Limit of total fields [${MAX_FIELDS}] has been exceeded`);
  assert.equal(m.size, MAX_FIELDS - 1);
  assert.equal(m.fieldType('one'), undefined);
  assert.equal(m.declare('last', 'keyword'), true);
  fails(() => m.declare('too-many', 'keyword'), 'illegal_argument_exception', /Limit of total fields/);
  assert.equal(MAX_FIELDS, 10_000);
});

test('JSON round trip keeps order, types and object paths', () => {
  const m = new IndexMapping();
  const u = m.update();
  u.valueFor('z', 'x');
  u.valueFor('a.b', 1.5);
  u.valueFor('_line', 'l');
  u.valueFor('m', true);
  u.commit();
  m.declare('d', 'date');
  const json = JSON.parse(JSON.stringify(m)) as unknown;
  assert.deepEqual(json, { fields: [['z', 'keyword'], ['a.b', 'double'], ['_line', 'text'], ['m', 'boolean'], ['d', 'date']] });
  const back = IndexMapping.fromJSON(json);
  assert.deepEqual(back.fields(), m.fields());
  assert.ok(back.isObject('a'));
  fails(() => back.update().valueFor('a', 1), 'mapper_parsing_exception', /object mapping for \[a\]/);
});

test('fromJSON refuses malformed input', () => {
  for (const bad of [null, 42, {}, { fields: 'x' }, { fields: [['a']] }, { fields: [['a', 'object']] }, { fields: [[1, 'long']] }]) {
    assert.throws(() => IndexMapping.fromJSON(bad), (err: unknown) => err instanceof SvcError && err.type === 'corrupt_index_exception');
  }
});

test('multi-fields: declared under a field, indexed from its values, kept through JSON', () => {
  const m = new IndexMapping();
  m.declare('message', 'text');
  assert.equal(m.declare('message.raw', 'keyword', 'message'), true);
  assert.equal(m.declare('message.raw', 'keyword', 'message'), false, 'declaring it again changes nothing');
  assert.equal(m.multiFieldParent('message.raw'), 'message');
  assert.deepEqual(m.multiFields('message'), ['message.raw']);
  assert.equal(m.isObject('message'), false, 'the parent stays a leaf');
  const u = m.update('7');
  assert.equal(u.valueFor('message', 'Hello World'), 'Hello World');
  assert.equal(u.multiFieldValue('message.raw', 'Hello World'), 'Hello World');
  fails(() => u.valueFor('message.raw', 'x'), 'mapper_parsing_exception', /Existing mapping for \[message\] must be of type object but found \[text\]/);
  fails(() => u.enterObject('message', { raw: 'x' }), 'mapper_parsing_exception', /failed to parse field \[message\] of type \[text\]/);
  const copy = IndexMapping.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
  assert.deepEqual(copy.toJSON(), { fields: [['message', 'text'], ['message.raw', 'keyword', 'message']] });
  assert.deepEqual(copy.multiFields('message'), ['message.raw']);
});

test('multi-field conflicts are 400s', () => {
  const m = new IndexMapping();
  m.declare('message', 'text');
  m.declare('message.raw', 'keyword', 'message');
  fails(() => m.declare('message.raw', 'long', 'message'), 'illegal_argument_exception', 'mapper [message.raw] cannot be changed from type [keyword] to [long]');
  fails(() => m.declare('message.raw', 'keyword'), 'illegal_argument_exception', /defined more than once as a multi-field and a field/);
  fails(() => m.declare('other.raw', 'keyword', 'other'), 'illegal_argument_exception', /needs its field \[other\] declared first/);
  fails(() => m.declare('message.raw.x', 'keyword', 'message.raw'), 'illegal_argument_exception', /needs its field/);
  fails(() => m.declare('message.other', 'keyword'), 'illegal_argument_exception', /can't merge a non object mapping \[message\]/);
  assert.throws(() => IndexMapping.fromJSON({ fields: [['a.b', 'keyword', 'a']] }), /bad field entry/);
});
