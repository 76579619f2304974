import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../../src/common/errors.js';
import { coerceValue, dynamicType } from '../../../src/engine/mapping/index.js';

function parseFailure(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof SvcError);
    assert.equal(err.type, 'mapper_parsing_exception');
    assert.equal(err.status, 400);
    assert.equal(err.reason, message);
    return true;
  });
}

test('dynamic type of a first value', () => {
  assert.equal(dynamicType('x'), 'keyword');
  assert.equal(dynamicType('123'), 'keyword');
  assert.equal(dynamicType(true), 'boolean');
  assert.equal(dynamicType(0), 'long');
  assert.equal(dynamicType(-9007199254740991), 'long');
  assert.equal(dynamicType(1.25), 'double');
  assert.equal(dynamicType(2 ** 64), 'double');
});

test('long: numbers and numeric strings, truncated; others refused', () => {
  assert.equal(coerceValue('n', 'long', 42), 42);
  assert.equal(coerceValue('n', 'long', '42'), 42);
  assert.equal(coerceValue('n', 'long', ' -7 '), -7);
  assert.equal(coerceValue('n', 'long', '3.9'), 3);
  assert.equal(coerceValue('n', 'long', -3.9), -3);
  assert.equal(coerceValue('n', 'long', '1e3'), 1000);
  parseFailure(() => coerceValue('n', 'long', 'abc', '5'), "failed to parse field [n] of type [long] in document with id '5'. Preview of field's value: 'abc'");
  parseFailure(() => coerceValue('n', 'long', ''), "failed to parse field [n] of type [long]. Preview of field's value: ''");
  parseFailure(() => coerceValue('n', 'long', '0x10'), "failed to parse field [n] of type [long]. Preview of field's value: '0x10'");
  parseFailure(() => coerceValue('n', 'long', true), "failed to parse field [n] of type [long]. Preview of field's value: 'true'");
  parseFailure(() => coerceValue('n', 'long', 2 ** 64), "failed to parse field [n] of type [long]. Preview of field's value: '18446744073709552000'");
});

test('double: numbers and numeric strings', () => {
  assert.equal(coerceValue('d', 'double', 1.5), 1.5);
  assert.equal(coerceValue('d', 'double', '2.25'), 2.25);
  assert.equal(coerceValue('d', 'double', '.5'), 0.5);
  parseFailure(() => coerceValue('d', 'double', 'NaN'), "failed to parse field [d] of type [double]. Preview of field's value: 'NaN'");
  parseFailure(() => coerceValue('d', 'double', 'Infinity'), "failed to parse field [d] of type [double]. Preview of field's value: 'Infinity'");
  parseFailure(() => coerceValue('d', 'double', false), "failed to parse field [d] of type [double]. Preview of field's value: 'false'");
});

test('keyword and text take the string form of any scalar', () => {
  assert.equal(coerceValue('k', 'keyword', 'x'), 'x');
  assert.equal(coerceValue('k', 'keyword', 42), '42');
  assert.equal(coerceValue('k', 'keyword', 1.5), '1.5');
  assert.equal(coerceValue('k', 'keyword', true), 'true');
  assert.equal(coerceValue('t', 'text', 7), '7');
});

test('boolean: true/false and their strings only', () => {
  assert.equal(coerceValue('b', 'boolean', true), true);
  assert.equal(coerceValue('b', 'boolean', 'false'), false);
  assert.equal(coerceValue('b', 'boolean', 'true'), true);
  parseFailure(() => coerceValue('b', 'boolean', 1), "failed to parse field [b] of type [boolean]. Preview of field's value: '1'");
  parseFailure(() => coerceValue('b', 'boolean', 'yes'), "failed to parse field [b] of type [boolean]. Preview of field's value: 'yes'");
});

test('date: epoch ms or ISO 8601', () => {
  assert.equal(coerceValue('t', 'date', 1700000000000), 1700000000000);
  assert.equal(coerceValue('t', 'date', '1700000000000'), 1700000000000);
  assert.equal(coerceValue('t', 'date', '2024-02-29T12:30:00.250Z'), Date.UTC(2024, 1, 29, 12, 30, 0, 250));
  assert.equal(coerceValue('t', 'date', '2024-02-29T12:30:00+02:00'), Date.UTC(2024, 1, 29, 10, 30));
  assert.equal(coerceValue('t', 'date', '2024-03-01'), Date.UTC(2024, 2, 1));
  parseFailure(() => coerceValue('t', 'date', 'yesterday'), "failed to parse field [t] of type [date]. Preview of field's value: 'yesterday'");
  parseFailure(() => coerceValue('t', 'date', '2023-02-29'), "failed to parse field [t] of type [date]. Preview of field's value: '2023-02-29'");
  parseFailure(() => coerceValue('t', 'date', true), "failed to parse field [t] of type [date]. Preview of field's value: 'true'");
});

test('long values are cut in the preview', () => {
  const long = 'x'.repeat(150);
  parseFailure(() => coerceValue('n', 'long', long), `failed to parse field [n] of type [long]. Preview of field's value: '${'x'.repeat(100)}...'`);
});
