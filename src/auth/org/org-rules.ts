/**
 * The organisation's rules as pure decisions on roles, tested exhaustively. One rule carries
 * the others: an actor may hand out, take away, create or change a role only when it could hold
 * that role's rights itself, so nobody can make a role or a member stronger than themselves.
 * On top: only owners touch `owner`, and handing out billing permissions needs `write:billing`.
 */
import type { Decision } from '../authorize.js';
import { patternCovers } from '../index-pattern.js';
import { BILLING_PERMISSIONS, isOwnerRole, type OrgRole } from './org-permissions.js';

const ALLOWED: Decision = { allowed: true };

function deny(reason: string): Decision {
  return { allowed: false, reason };
}

/** Whether `actor` may give `role` to a user (or take it from one). */
export function mayAssign(actor: OrgRole, role: OrgRole): Decision {
  if (isOwnerRole(role) && !isOwnerRole(actor)) return deny('only owners may add users to or remove users from [owner]');
  return mayGrant(actor, role);
}

/**
 * Whether `actor` may define a role with these rights (create it, or change one to it): its
 * permissions and search scope must be within the actor's own.
 */
export function mayGrant(actor: OrgRole, role: Pick<OrgRole, 'name' | 'permissions' | 'indexes'>): Decision {
  const beyond = role.permissions.filter((p) => !actor.permissions.includes(p));
  if (beyond.length > 0) return deny(`role [${role.name}] holds [${beyond.join(', ')}], which your role [${actor.name}] does not hold`);
  const billing = role.permissions.filter((p) => BILLING_PERMISSIONS.includes(p));
  if (billing.length > 0 && !actor.permissions.includes('write:billing')) {
    return deny(`role [${role.name}] includes [${billing.join(', ')}]: only a holder of [write:billing] may hand out billing permissions`);
  }
  const wider = role.indexes.filter((inner) => !actor.indexes.some((outer) => patternCovers(outer, inner)));
  if (wider.length > 0) return deny(`role [${role.name}] may search [${wider.join(', ')}], beyond what your role [${actor.name}] may search`);
  return ALLOWED;
}

/** Whether a change leaves the account without an owner: `owners` counts them before it. */
export function leavesNoOwner(owners: number, from: OrgRole, to: OrgRole | undefined): boolean {
  return isOwnerRole(from) && (to === undefined || !isOwnerRole(to)) && owners <= 1;
}
