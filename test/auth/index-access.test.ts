import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ALLOW_ALL,
  DENY_ALL,
  accessForPrincipal,
  apiKeyPrincipal,
  assertNamedIndicesPermitted,
  bulkItemForbidden,
  isConcreteIndexName,
  permittedIndices,
} from '../../src/auth/index.js';
import { ForbiddenError } from '../../src/common/index.js';

const logsReader = accessForPrincipal(
  apiKeyPrincipal(5, [{ name: 'r', database: [], indexes: [{ names: ['logs-*'], permissions: ['read'] }, { names: ['inbox'], permissions: ['write'] }] }]),
);

test('naming an index the actor may not read is 403, before any lookup', () => {
  assert.doesNotThrow(() => assertNamedIndicesPermitted(logsReader, 'read', ['logs-1', 'logs-2']));
  assert.throws(
    () => assertNamedIndicesPermitted(logsReader, 'read', ['logs-1', 'secrets']),
    (err: unknown) => err instanceof ForbiddenError && err.status === 403 && err.type === 'security_exception' && /index:read.*\[secrets\]/.test(err.message),
  );
  // patterns, _all and exclusions are narrowed, not refused
  assert.doesNotThrow(() => assertNamedIndicesPermitted(logsReader, 'read', ['*', '_all', 'sec*', '-secrets']));
});

test('patterns and _all cover only the permitted indexes', () => {
  const all = ['audit', 'inbox', 'logs-1', 'logs-2', 'secrets'];
  assert.deepEqual(permittedIndices(logsReader, 'read', all), ['logs-1', 'logs-2']);
  assert.deepEqual(permittedIndices(logsReader, 'write', all), ['inbox']);
  assert.deepEqual(permittedIndices(logsReader, 'delete', all), []);
  assert.deepEqual(permittedIndices(ALLOW_ALL, 'delete', all), all);
  assert.deepEqual(permittedIndices(DENY_ALL, 'read', all), []);
});

test('a bulk item for an index the actor may not write fails alone with 403', () => {
  assert.equal(bulkItemForbidden(logsReader, 'inbox'), undefined);
  const denied = bulkItemForbidden(logsReader, 'logs-1');
  assert.ok(denied instanceof ForbiddenError);
  assert.equal(denied.status, 403);
  assert.equal(denied.type, 'security_exception');
  assert.match(denied.message, /index:write.*\[logs-1\]/);
});

test('concrete names are those without wildcards, _all or a leading minus', () => {
  assert.equal(isConcreteIndexName('logs'), true);
  assert.equal(isConcreteIndexName('logs-*'), false);
  assert.equal(isConcreteIndexName('_all'), false);
  assert.equal(isConcreteIndexName('-logs'), false);
});

test('the contexts name their actor and say whether they enforce', () => {
  assert.equal(logsReader.principalLabel, 'api_key:5');
  assert.equal(logsReader.enforced, true);
  assert.equal(ALLOW_ALL.enforced, false);
  assert.equal(ALLOW_ALL.can('delete', 'anything'), true);
  assert.equal(DENY_ALL.can('read', 'anything'), false);
});
