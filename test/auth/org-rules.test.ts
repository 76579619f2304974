/** The organisation rules as pure decisions, every combination against an oracle written apart. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_ORG_ROLES,
  ORG_PERMISSIONS,
  authorize,
  apiKeyPrincipal,
  leavesNoOwner,
  mayAssign,
  mayGrant,
  userPrincipal,
  type OrgPermission,
  type OrgRole,
  type Requirement,
} from '../../src/auth/index.js';

/** Every subset of the five permissions, with two search scopes each, plus the defaults. */
function roles(): OrgRole[] {
  const out: OrgRole[] = [...DEFAULT_ORG_ROLES];
  for (let mask = 0; mask < 1 << ORG_PERMISSIONS.length; mask++) {
    const permissions = ORG_PERMISSIONS.filter((_, i) => (mask & (1 << i)) !== 0) as OrgPermission[];
    for (const indexes of [['*'], ['logs-*'], ['logs-app'], ['metrics', 'logs-*']]) out.push({ name: `c${mask}-${indexes.join('+')}`, permissions, indexes, builtIn: false });
  }
  return out;
}

const covers = (outer: string[], inner: string[]) =>
  inner.every((i) => outer.some((o) => o === '*' || o === i || (o.endsWith('*') && i !== '*' && i.startsWith(o.slice(0, -1)))));
const isOwner = (r: OrgRole) => r.builtIn && r.name === 'owner';

test('mayGrant and mayAssign: within your own rights, owners only for owner, billing only with write:billing', () => {
  let checked = 0;
  const all = roles();
  for (const actor of all) {
    for (const role of all) {
      const withinOwn = role.permissions.every((p) => actor.permissions.includes(p)) && covers(actor.indexes, role.indexes);
      const billingOk = !role.permissions.some((p) => p.endsWith(':billing')) || actor.permissions.includes('write:billing');
      assert.equal(mayGrant(actor, role).allowed, withinOwn && billingOk, `${actor.name} grants ${role.name}`);
      assert.equal(mayAssign(actor, role).allowed, withinOwn && billingOk && (!isOwner(role) || isOwner(actor)), `${actor.name} assigns ${role.name}`);
      checked++;
    }
  }
  assert.ok(checked > 10_000, `checked ${checked}`);
});

test('what each default role may hand out', () => {
  const byName = new Map(DEFAULT_ORG_ROLES.map((r) => [r.name, r]));
  const assignable = (actor: string) => DEFAULT_ORG_ROLES.filter((r) => mayAssign(byName.get(actor)!, r).allowed).map((r) => r.name);
  assert.deepEqual(assignable('owner'), ['owner', 'admin', 'contributor', 'viewer']);
  // admin holds read:billing but not write:billing: it cannot hand out admin (or owner) itself
  assert.deepEqual(assignable('admin'), ['contributor', 'viewer']);
  assert.deepEqual(assignable('contributor'), ['contributor', 'viewer']);
  assert.deepEqual(assignable('viewer'), ['viewer']);
});

test('the last owner cannot go', () => {
  const [owner, admin] = DEFAULT_ORG_ROLES;
  assert.equal(leavesNoOwner(1, owner!, undefined), true);
  assert.equal(leavesNoOwner(1, owner!, admin), true);
  assert.equal(leavesNoOwner(1, owner!, owner), false);
  assert.equal(leavesNoOwner(2, owner!, undefined), false);
  assert.equal(leavesNoOwner(1, admin!, undefined), false);
});

test('organisation requirements: a member holds what its role lists; owners alone close the account', () => {
  const requirements: Requirement[] = [...ORG_PERMISSIONS.map((permission) => ({ kind: 'org', permission }) as Requirement), { kind: 'org_owner' }];
  for (const role of roles()) {
    const member = userPrincipal('alice', [], { userId: 1, role });
    for (const req of requirements) {
      const expected = req.kind === 'org' ? role.permissions.includes(req.permission) : isOwner(role);
      assert.equal(authorize(member, req).allowed, expected, `${role.name} ${JSON.stringify(req)}`);
      assert.equal(authorize(userPrincipal('alice', []), req).allowed, false);
      assert.equal(authorize(apiKeyPrincipal(1, [{ name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read'] }] }]), req).allowed, false);
    }
  }
});
