/** The RBAC service over the real metastore store, on SQLite and on PostgreSQL. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { RbacService, RecordConflictError, apiKeyLookupId, apiKeyMatches, createAuditLog, type RoleInput } from '../../src/auth/index.js';
import { ConflictError, NotFoundError, BadRequestError } from '../../src/common/index.js';
import { createLogger } from '../../src/observability/index.js';
import { eachDialect } from '../metastore/dialects.js';

const ADMIN: RoleInput = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };
const READER: RoleInput = { name: 'reader', database: [], indexes: [{ names: ['logs-*'], permissions: ['read'] }] };
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function isError<T extends Error>(type: new (...args: never[]) => T, status: number, reason: RegExp) {
  return (err: unknown) => err instanceof type && (err as unknown as { status: number }).status === status && reason.test((err as Error).message);
}

eachDialect((it) => {
  it('roles: create, list, get, update, delete, with 404 and 409', async (ms) => {
    const rbac = new RbacService(ms.rbac);
    const admin = await rbac.createRole(ADMIN, 'bootstrap');
    assert.deepEqual(admin, { id: admin.id, ...ADMIN });
    const reader = await rbac.createRole(READER, 'bootstrap');
    assert.ok(reader.id > admin.id);
    assert.deepEqual((await rbac.listRoles()).map((r) => r.name), ['admin', 'reader']);
    assert.deepEqual(await rbac.getRole(reader.id), reader);
    await assert.rejects(rbac.createRole({ ...READER }, 'x'), isError(ConflictError, 409, /role \[reader\] already exists/));
    await assert.rejects(rbac.getRole(999), isError(NotFoundError, 404, /role \[999\] not found/));
    await assert.rejects(rbac.updateRole(reader.id, { ...READER, name: 'admin' }, 'x'), isError(ConflictError, 409, /already exists/));
    const renamed = await rbac.updateRole(reader.id, { ...READER, name: 'log-reader', database: ['monitor'] }, 'x');
    assert.deepEqual(renamed, { id: reader.id, name: 'log-reader', database: ['monitor'], indexes: READER.indexes });
    await assert.rejects(rbac.updateRole(999, READER, 'x'), isError(NotFoundError, 404, /not found/));
    assert.deepEqual(await rbac.deleteRole(reader.id, 'x'), renamed);
    await assert.rejects(rbac.deleteRole(reader.id, 'x'), isError(NotFoundError, 404, /not found/));
    // ids are never handed out twice
    const again = await rbac.createRole(READER, 'x');
    assert.ok(again.id > reader.id);
  });

  it('api keys: stored as hash and prefix, found by prefix, revoked at once, renames keep them', async (ms) => {
    const rbac = new RbacService(ms.rbac);
    const reader = await rbac.createRole(READER, 'x');
    const key = await rbac.createApiKey({ name: 'grafana', role: 'reader' }, 'x');
    assert.equal(key.role, 'reader');
    assert.match(key.createdAt, ISO_MS);
    const stored = await ms.rbac.findApiKey(key.id);
    assert.ok(stored);
    assert.equal(stored.keyPrefix, apiKeyLookupId(key.apiKey));
    assert.ok(apiKeyMatches(key.apiKey, stored.keyHash));
    assert.ok(!JSON.stringify(stored).includes(key.apiKey), 'the key value itself is not stored');

    await rbac.updateRole(reader.id, { ...READER, name: 'readers' }, 'x');
    const candidates = await rbac.apiKeyCandidates(apiKeyLookupId(key.apiKey));
    assert.equal(candidates.length, 1);
    assert.equal(candidates[0]!.role?.name, 'readers');
    assert.deepEqual((await rbac.listApiKeys()).map((k) => [k.name, k.role]), [['grafana', 'readers']]);

    await assert.rejects(rbac.createApiKey({ name: 'grafana', role: 'readers' }, 'x'), isError(ConflictError, 409, /api key \[grafana\] already exists/));
    await assert.rejects(rbac.createApiKey({ name: 'other', role: 'nope' }, 'x'), isError(BadRequestError, 400, /role \[nope\] does not exist/));

    const revoked = await rbac.revokeApiKey(key.id, 'x');
    assert.equal(revoked.name, 'grafana');
    assert.deepEqual(await rbac.apiKeyCandidates(apiKeyLookupId(key.apiKey)), []);
    assert.deepEqual(await rbac.listApiKeys(), []);
    await assert.rejects(rbac.revokeApiKey(key.id, 'x'), isError(NotFoundError, 404, /api key/));
    // a revoked key's name may be given again
    const second = await rbac.createApiKey({ name: 'grafana', role: 'readers' }, 'x');
    assert.notEqual(second.id, key.id);
  });

  it('a role used by keys or mappings cannot be deleted; the 409 names them', async (ms) => {
    const rbac = new RbacService(ms.rbac);
    const reader = await rbac.createRole(READER, 'x');
    const key = await rbac.createApiKey({ name: 'k1', role: 'reader' }, 'x');
    await rbac.createRoleMapping({ name: 'idp-readers', roles: ['reader'] }, 'x');
    await assert.rejects(rbac.deleteRole(reader.id, 'x'), isError(ConflictError, 409, /role \[reader\] is used by api keys \[k1\] and role mappings \[idp-readers\]/));
    await rbac.revokeApiKey(key.id, 'x');
    await assert.rejects(rbac.deleteRole(reader.id, 'x'), isError(ConflictError, 409, /role mappings \[idp-readers\]/));
    const mapping = (await rbac.listRoleMappings())[0]!;
    await rbac.deleteRoleMapping(mapping.id, 'x');
    await rbac.deleteRole(reader.id, 'x');
    assert.deepEqual(await rbac.listRoles(), []);
  });

  it('role mappings: create, upsert by name, update, delete, union of roles for a user', async (ms) => {
    const rbac = new RbacService(ms.rbac);
    await rbac.createRole(ADMIN, 'x');
    await rbac.createRole(READER, 'x');
    const m = await rbac.createRoleMapping({ name: 'ops', roles: ['reader'] }, 'x');
    assert.deepEqual({ name: m.name, roles: m.roles }, { name: 'ops', roles: ['reader'] });
    assert.match(m.createdAt, ISO_MS);
    await assert.rejects(rbac.createRoleMapping({ name: 'ops', roles: ['admin'] }, 'x'), isError(ConflictError, 409, /role mapping \[ops\] already exists/));
    await assert.rejects(rbac.createRoleMapping({ name: 'x', roles: ['ghost'] }, 'x'), isError(BadRequestError, 400, /role \[ghost\] does not exist/));

    const upserted = await rbac.upsertRoleMapping({ name: 'ops', roles: ['reader', 'admin'] }, 'x');
    assert.equal(upserted.created, false);
    assert.equal(upserted.mapping.id, m.id);
    assert.equal(upserted.mapping.createdAt, m.createdAt);
    assert.deepEqual(upserted.mapping.roles, ['reader', 'admin']);
    const fresh = await rbac.upsertRoleMapping({ name: 'devs', roles: ['reader'] }, 'x');
    assert.equal(fresh.created, true);

    await assert.rejects(rbac.updateRoleMapping(m.id, { name: 'devs', roles: ['reader'] }, 'x'), isError(ConflictError, 409, /already exists/));
    await assert.rejects(rbac.updateRoleMapping(999, { name: 'z', roles: ['reader'] }, 'x'), isError(NotFoundError, 404, /role mapping \[999\]/));
    await assert.rejects(rbac.getRoleMapping(999), isError(NotFoundError, 404, /not found/));

    const roles = await rbac.rolesForProviderRoles(['ops', 'devs', 'unknown']);
    assert.deepEqual(roles.map((r) => r.name).sort(), ['admin', 'reader']);
    assert.deepEqual(await rbac.rolesForProviderRoles(['unknown']), []);
    assert.deepEqual(await rbac.rolesForProviderRoles([]), []);

    await rbac.deleteRoleMapping(fresh.mapping.id, 'x');
    assert.deepEqual((await rbac.listRoleMappings()).map((x) => x.name), ['ops']);
  });

  it('the bootstrap key retires with the first manage_security key, for good', async (ms) => {
    const rbac = new RbacService(ms.rbac);
    await rbac.createRole(READER, 'bootstrap');
    await rbac.createApiKey({ name: 'reader-key', role: 'reader' }, 'bootstrap');
    assert.equal(await rbac.bootstrapRetired(), false, 'a key without manage_security does not retire it');
    await rbac.createRole(ADMIN, 'bootstrap');
    const admin = await rbac.createApiKey({ name: 'admin', role: 'admin' }, 'bootstrap');
    assert.equal(await rbac.bootstrapRetired(), true);
    assert.match((await ms.rbac.bootstrapRetiredAt()) ?? '', ISO_MS);
    await rbac.revokeApiKey(admin.id, 'api_key:1');
    assert.equal(await rbac.bootstrapRetired(), true, 'revoking the admin key does not bring the bootstrap key back');
  });

  it('granting manage_security to a role that has keys retires the bootstrap key', async (ms) => {
    const rbac = new RbacService(ms.rbac);
    const role = await rbac.createRole(READER, 'bootstrap');
    await rbac.createApiKey({ name: 'k', role: 'reader' }, 'bootstrap');
    assert.equal(await rbac.bootstrapRetired(), false);
    await rbac.updateRole(role.id, { ...READER, database: ['manage_security'] }, 'bootstrap');
    assert.equal(await rbac.bootstrapRetired(), true);
  });

  it('an admin key in a database without the retirement record still retires the bootstrap key', async (ms) => {
    const role = await ms.rbac.insertRole({ ...ADMIN, createdAt: new Date().toISOString() });
    await ms.rbac.insertApiKey({ name: 'legacy', roleId: role.id, keyPrefix: 'p', keyHash: 'h', createdAt: new Date().toISOString() });
    assert.equal(await new RbacService(ms.rbac).bootstrapRetired(), true);
  });

  it('the store turns unique-name races into RecordConflictError', async (ms) => {
    const now = new Date().toISOString();
    await ms.rbac.insertRole({ ...READER, createdAt: now });
    await assert.rejects(ms.rbac.insertRole({ ...READER, createdAt: now }), RecordConflictError);
    await ms.rbac.insertRoleMapping({ name: 'm', roleIds: [1], createdAt: now });
    await assert.rejects(ms.rbac.insertRoleMapping({ name: 'm', roleIds: [1], createdAt: now }), RecordConflictError);
    await ms.rbac.insertApiKey({ name: 'k', roleId: 1, keyPrefix: 'a', keyHash: 'b', createdAt: now });
    await assert.rejects(ms.rbac.insertApiKey({ name: 'k', roleId: 1, keyPrefix: 'c', keyHash: 'd', createdAt: now }), RecordConflictError);
  });

  it('a failed change leaves nothing behind', async (ms) => {
    const rbac = new RbacService(ms.rbac);
    await rbac.createRole(ADMIN, 'x');
    await assert.rejects(
      ms.rbac.transaction(async (tx) => {
        await tx.insertRole({ ...READER, createdAt: new Date().toISOString() });
        throw new Error('abort');
      }),
      /abort/,
    );
    assert.deepEqual((await rbac.listRoles()).map((r) => r.name), ['admin']);
  });

  it('every change writes one audit line naming the actor and never a key', async (ms) => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const rbac = new RbacService(ms.rbac, { audit: createAuditLog(createLogger('info', sink)) });
    const role = await rbac.createRole(ADMIN, 'bootstrap');
    const key = await rbac.createApiKey({ name: 'ops', role: 'admin' }, 'bootstrap');
    await rbac.updateRole(role.id, { ...ADMIN, database: ['manage_security'] }, `api_key:${key.id}`);
    const mapping = await rbac.createRoleMapping({ name: 'g', roles: ['admin'] }, 'user:alice');
    await rbac.updateRoleMapping(mapping.id, { name: 'g2', roles: ['admin'] }, 'user:alice');
    await rbac.deleteRoleMapping(mapping.id, 'user:alice');
    await rbac.revokeApiKey(key.id, `api_key:${key.id}`);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      lines.map((l) => [l.audit, l.event, l.actor, l.name]),
      [
        [true, 'role.created', 'bootstrap', 'admin'],
        [true, 'api_key.created', 'bootstrap', 'ops'],
        [true, 'role.updated', `api_key:${key.id}`, 'admin'],
        [true, 'role_mapping.created', 'user:alice', 'g'],
        [true, 'role_mapping.updated', 'user:alice', 'g2'],
        [true, 'role_mapping.deleted', 'user:alice', 'g2'],
        [true, 'api_key.revoked', `api_key:${key.id}`, 'ops'],
      ],
    );
    const text = JSON.stringify(lines);
    assert.ok(!text.includes(key.apiKey));
    assert.ok(!text.includes(key.apiKey.slice(16)));
  });
});
