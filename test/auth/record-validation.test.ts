import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseApiKeyInput, parseRecordId, parseRoleInput, parseRoleMappingInput } from '../../src/auth/index.js';
import { BadRequestError } from '../../src/common/index.js';

const admin = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };

function rejects(fn: () => unknown, type: string, reason: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof BadRequestError && err.status === 400 && err.type === type && reason.test(err.message));
}

test('a valid role is accepted, duplicates inside lists removed', () => {
  assert.deepEqual(parseRoleInput(admin), admin);
  assert.deepEqual(parseRoleInput({ name: 'r', database: ['monitor', 'monitor'], indexes: [{ names: ['a', 'a'], permissions: ['read', 'read'] }] }), {
    name: 'r',
    database: ['monitor'],
    indexes: [{ names: ['a'], permissions: ['read'] }],
  });
  assert.deepEqual(parseRoleInput({ name: 'empty', database: [], indexes: [] }), { name: 'empty', database: [], indexes: [] });
});

test('role bodies: unknown fields, wrong types and missing fields', () => {
  rejects(() => parseRoleInput(undefined), 'parse_exception', /body is required/);
  rejects(() => parseRoleInput({ ...admin, extra: 1 }), 'parse_exception', /unknown field \[extra\]/);
  rejects(() => parseRoleInput({ ...admin, name: 5 }), 'parse_exception', /\[name\] of a role must be a string/);
  rejects(() => parseRoleInput({ ...admin, database: 'monitor' }), 'parse_exception', /\[database\] must be an array of strings/);
  rejects(() => parseRoleInput({ ...admin, database: [1] }), 'parse_exception', /array of strings/);
  rejects(() => parseRoleInput({ ...admin, indexes: {} }), 'parse_exception', /\[indexes\] must be an array/);
  rejects(() => parseRoleInput({ ...admin, indexes: ['x'] }), 'parse_exception', /indexes\[0\]\] must be an object/);
  rejects(() => parseRoleInput({ ...admin, indexes: [{ names: ['a'], permissions: ['read'], more: true }] }), 'parse_exception', /unknown field \[more\]/);
  rejects(() => parseRoleInput({ name: 'x', database: [] }), 'action_request_validation_exception', /field \[indexes\] is required/);
  rejects(() => parseRoleInput({ ...admin, indexes: [{ names: ['a'] }] }), 'action_request_validation_exception', /\[permissions\] is required/);
});

test('role values: empty name, unknown actions, bad patterns', () => {
  rejects(() => parseRoleInput({ ...admin, name: '' }), 'action_request_validation_exception', /must not be empty/);
  rejects(() => parseRoleInput({ ...admin, name: ' admin' }), 'action_request_validation_exception', /whitespace/);
  rejects(() => parseRoleInput({ ...admin, name: 'a\nb' }), 'action_request_validation_exception', /control characters/);
  rejects(() => parseRoleInput({ ...admin, database: ['manage security'] }), 'action_request_validation_exception', /unknown database action \[manage security\]/);
  rejects(() => parseRoleInput({ ...admin, database: ['all'] }), 'action_request_validation_exception', /allowed values are \[manage_security, monitor\]/);
  rejects(() => parseRoleInput({ ...admin, indexes: [{ names: ['a'], permissions: ['admin'] }] }), 'action_request_validation_exception', /unknown index permission \[admin\]/);
  rejects(() => parseRoleInput({ ...admin, indexes: [{ names: ['a'], permissions: [] }] }), 'action_request_validation_exception', /at least one of \[read, write, delete\]/);
  rejects(() => parseRoleInput({ ...admin, indexes: [{ names: [], permissions: ['read'] }] }), 'action_request_validation_exception', /at least one index pattern/);
  rejects(() => parseRoleInput({ ...admin, indexes: [{ names: [''], permissions: ['read'] }] }), 'action_request_validation_exception', /must not be empty/);
  rejects(() => parseRoleInput({ ...admin, indexes: [{ names: ['lo*gs'], permissions: ['read'] }] }), 'action_request_validation_exception', /trailing prefix wildcard/);
});

test('updates may repeat the path id, and a mapping its created_at', () => {
  assert.deepEqual(parseRoleInput({ ...admin, id: 3 }, { id: 3 }), admin);
  rejects(() => parseRoleInput({ ...admin, id: 4 }, { id: 3 }), 'action_request_validation_exception', /does not match/);
  rejects(() => parseRoleInput({ ...admin, id: 3 }), 'parse_exception', /unknown field \[id\]/);
  assert.deepEqual(parseRoleMappingInput({ id: 2, name: 'g', roles: ['admin'], created_at: 'whenever' }, { id: 2 }), { name: 'g', roles: ['admin'] });
  rejects(() => parseRoleMappingInput({ name: 'g', roles: ['admin'], created_at: 'x' }), 'parse_exception', /unknown field \[created_at\]/);
});

test('api key bodies', () => {
  assert.deepEqual(parseApiKeyInput({ name: 'ci', role: 'admin' }), { name: 'ci', role: 'admin' });
  rejects(() => parseApiKeyInput({ name: 'ci' }), 'action_request_validation_exception', /\[role\] is required/);
  rejects(() => parseApiKeyInput({ name: 'ci', role: ['admin'] }), 'parse_exception', /must be a string/);
  rejects(() => parseApiKeyInput({ name: '', role: 'admin' }), 'action_request_validation_exception', /must not be empty/);
  rejects(() => parseApiKeyInput({ name: 'ci', role: 'admin', api_key: 'x' }), 'parse_exception', /unknown field \[api_key\]/);
});

test('role mapping bodies', () => {
  assert.deepEqual(parseRoleMappingInput({ name: 'idp-admins', roles: ['admin', 'admin', 'reader'] }), { name: 'idp-admins', roles: ['admin', 'reader'] });
  rejects(() => parseRoleMappingInput({ name: 'g', roles: [] }), 'action_request_validation_exception', /at least one role/);
  rejects(() => parseRoleMappingInput({ name: 'g', roles: 'admin' }), 'parse_exception', /array of strings/);
  rejects(() => parseRoleMappingInput({ name: 'g', roles: [''] }), 'action_request_validation_exception', /must not be empty/);
});

test('path ids are positive integers', () => {
  assert.equal(parseRecordId('42', 'role'), 42);
  for (const bad of ['0', '-1', '1.5', 'abc', '01', '']) {
    assert.throws(() => parseRecordId(bad, 'role'), (err: unknown) => err instanceof BadRequestError && /role id/.test(err.message), bad);
  }
});
