import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BOOTSTRAP_LIMITED_REASON,
  ORG_PERMISSIONS,
  BOOTSTRAP_RETIRED_REASON,
  apiKeyPrincipal,
  authorize,
  bootstrapPrincipal,
  canAccessIndex,
  userPrincipal,
  type DatabaseAction,
  type IndexAction,
  type Principal,
  type Requirement,
  type RoleGrants,
} from '../../src/auth/index.js';

const DB_SETS: DatabaseAction[][] = [[], ['manage_security'], ['monitor'], ['manage_security', 'monitor']];
const INDEX_ACTION_SETS: IndexAction[][] = [[], ['read'], ['write'], ['delete'], ['read', 'write'], ['read', 'delete'], ['write', 'delete'], ['read', 'write', 'delete']];
const PATTERNS = ['*', 'logs-*', 'logs-1'];
const INDEX_SETS: Array<string[] | undefined> = [undefined, ['logs-1'], ['logs-2'], ['metrics'], ['logs-1', 'metrics'], ['logs-'], ['logs']];

function requirements(): Requirement[] {
  const out: Requirement[] = [{ kind: 'public' }, { kind: 'authenticated' }];
  for (const action of ['read', 'write', 'delete'] as const) out.push({ kind: 'index', action });
  for (const action of ['manage_security', 'monitor'] as const) {
    out.push({ kind: 'database', action }, { kind: 'database', action, bootstrap: true });
  }
  for (const permission of ORG_PERMISSIONS) out.push({ kind: 'org', permission });
  out.push({ kind: 'org_owner' });
  return out;
}

/** The specification's rules, written independently of the implementation. */
function oracle(db: DatabaseAction[], grant: { pattern: string; actions: IndexAction[] } | undefined, req: Requirement, indices?: string[]): boolean {
  const matches = (pattern: string, index: string): boolean =>
    pattern === '*' ? true : pattern.endsWith('*') ? new RegExp(`^${pattern.slice(0, -1).replace(/[-]/g, '\\-')}`).test(index) : pattern === index;
  switch (req.kind) {
    case 'public':
    case 'authenticated':
      return true;
    case 'database':
      return db.includes(req.action);
    case 'index':
      if (grant === undefined || !grant.actions.includes(req.action)) return false;
      return indices === undefined ? true : indices.every((i) => matches(grant.pattern, i));
    case 'org':
    case 'org_owner':
      // only through an organisation role, which none of these principals has
      return false;
    case 'cluster_secret':
      // only with the cluster secret, never with a credential
      return false;
  }
}

describe('authorize, every combination of one role', () => {
  test('api keys and users follow the rules of their role', () => {
    let checked = 0;
    for (const db of DB_SETS) {
      const grants: Array<{ pattern: string; actions: IndexAction[] } | undefined> = [undefined];
      for (const actions of INDEX_ACTION_SETS) for (const pattern of PATTERNS) grants.push({ pattern, actions });
      for (const grant of grants) {
        const role: RoleGrants = {
          name: 'r',
          database: db,
          indexes: grant === undefined ? [] : [{ names: [grant.pattern], permissions: grant.actions }],
        };
        for (const principal of [apiKeyPrincipal(7, [role]), userPrincipal('alice', [role])]) {
          for (const req of requirements()) {
            for (const indices of req.kind === 'index' ? INDEX_SETS : [undefined]) {
              const expected = oracle(db, grant, req, indices);
              const decision = authorize(principal, req, indices);
              assert.equal(decision.allowed, expected, `${JSON.stringify(role)} ${JSON.stringify(req)} ${JSON.stringify(indices)}`);
              if (!decision.allowed) {
                const needed = req.kind === 'database' ? `database:${req.action}` : req.kind === 'index' ? `index:${req.action}` : '';
                assert.ok(decision.reason.includes(needed), decision.reason);
              }
              checked++;
            }
          }
        }
      }
    }
    assert.ok(checked > 5000, `checked ${checked}`);
  });

  test('a principal without roles may call only public and authenticated endpoints', () => {
    for (const principal of [apiKeyPrincipal(1, []), userPrincipal('nobody', [])]) {
      for (const req of requirements()) {
        const expected = req.kind === 'public' || req.kind === 'authenticated';
        assert.equal(authorize(principal, req).allowed, expected, JSON.stringify(req));
      }
    }
  });
});

describe('authorize, the bootstrap key', () => {
  test('while valid it may call only the endpoints flagged for it', () => {
    const principal = bootstrapPrincipal(false);
    for (const req of requirements()) {
      const expected = req.kind === 'public' || (req.kind === 'database' && req.bootstrap === true);
      const decision = authorize(principal, req);
      assert.equal(decision.allowed, expected, JSON.stringify(req));
      if (!decision.allowed) assert.equal(decision.reason, BOOTSTRAP_LIMITED_REASON);
    }
  });

  test('once retired it is refused everywhere but public endpoints, saying why', () => {
    const principal = bootstrapPrincipal(true);
    for (const req of requirements()) {
      const decision = authorize(principal, req);
      assert.equal(decision.allowed, req.kind === 'public', JSON.stringify(req));
      if (!decision.allowed) {
        assert.equal(decision.reason, BOOTSTRAP_RETIRED_REASON);
        assert.match(decision.reason, /bootstrap key is no longer valid/);
      }
    }
  });

  test('it has no index access at all', () => {
    for (const action of ['read', 'write', 'delete'] as const) {
      assert.equal(canAccessIndex(bootstrapPrincipal(false), action, 'logs'), false);
    }
  });
});

describe('authorize, several roles', () => {
  const reader: RoleGrants = { name: 'reader', database: [], indexes: [{ names: ['logs-*', 'audit'], permissions: ['read'] }] };
  const writer: RoleGrants = { name: 'writer', database: ['monitor'], indexes: [{ names: ['metrics'], permissions: ['write'] }] };
  const user: Principal = userPrincipal('bob', [reader, writer]);

  test('a user holds the union of the roles its provider roles map to', () => {
    assert.equal(canAccessIndex(user, 'read', 'logs-1'), true);
    assert.equal(canAccessIndex(user, 'read', 'audit'), true);
    assert.equal(canAccessIndex(user, 'write', 'metrics'), true);
    assert.equal(canAccessIndex(user, 'write', 'logs-1'), false);
    assert.equal(canAccessIndex(user, 'read', 'metrics'), false);
    assert.equal(canAccessIndex(user, 'read', 'audit-2'), false);
    assert.equal(authorize(user, { kind: 'database', action: 'monitor' }).allowed, true);
    assert.equal(authorize(user, { kind: 'database', action: 'manage_security' }).allowed, false);
  });

  test('every named index must be permitted; the reason names the first that is not', () => {
    const decision = authorize(user, { kind: 'index', action: 'read' }, ['logs-1', 'metrics', 'other']);
    assert.deepEqual(decision, { allowed: false, reason: 'permission [index:read] on index [metrics] is required' });
    assert.equal(authorize(user, { kind: 'index', action: 'read' }, []).allowed, true);
  });

  test('a grant with an action but no names gives nothing', () => {
    const empty = apiKeyPrincipal(3, [{ name: 'odd', database: [], indexes: [{ names: [], permissions: ['read'] }] }]);
    assert.equal(authorize(empty, { kind: 'index', action: 'read' }).allowed, false);
  });
});
