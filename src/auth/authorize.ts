/**
 * The authorization decision as a pure function of a principal, what the endpoint requires and,
 * for index-level permissions, the indexes concerned. Everything that touches HTTP or storage
 * lives elsewhere; this file is tested exhaustively.
 */
import { matchesIndexPattern, patternCovers } from './index-pattern.js';
import { isOwnerRole, type OrgPermission } from './org/org-permissions.js';
import type { DatabaseAction, IndexAction } from './permissions.js';
import type { Principal } from './principal.js';

export type Requirement =
  /** no credential is needed (liveness and readiness probes) */
  | { kind: 'public' }
  /** any valid credential, whatever its roles */
  | { kind: 'authenticated' }
  | { kind: 'index'; action: IndexAction }
  /** `bootstrap`: the bootstrap key may call this endpoint while it is still valid */
  | { kind: 'database'; action: DatabaseAction; bootstrap?: boolean }
  /** an organisation permission, held through the user's one organisation role */
  | { kind: 'org'; permission: OrgPermission }
  /** the organisation's owners only (closing the account) */
  | { kind: 'org_owner' }
  /** the cluster's own processes, by the cluster secret (cluster-secret.ts); never a user's credential */
  | { kind: 'cluster_secret' };

export type Decision = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: Decision = { allowed: true };

export const BOOTSTRAP_RETIRED_REASON =
  'bootstrap key is no longer valid: an api key holding manage_security exists; use that key and remove SVC_BOOTSTRAP_KEY';
export const BOOTSTRAP_LIMITED_REASON =
  'the bootstrap key may only read and create roles and api keys under /v1, to set up the first administrator';

function deny(reason: string): Decision {
  return { allowed: false, reason };
}

/** Whether any of the principal's roles grants `action` on `index`. */
export function canAccessIndex(principal: Principal, action: IndexAction, index: string): boolean {
  if (principal.kind === 'bootstrap') return false;
  for (const role of principal.roles) {
    for (const grant of role.indexes) {
      if (!grant.permissions.includes(action)) continue;
      for (const pattern of grant.names) {
        if (matchesIndexPattern(pattern, index)) return true;
      }
    }
  }
  return false;
}

/**
 * Whether the principal holds `action` on every index `pattern` matches (a name or a `prefix*`
 * pattern): some grant's pattern covers it.
 */
export function holdsIndexActionOver(principal: Principal, action: IndexAction, pattern: string): boolean {
  if (principal.kind === 'bootstrap') return false;
  return principal.roles.some((role) => role.indexes.some((grant) => grant.permissions.includes(action) && grant.names.some((outer) => patternCovers(outer, pattern))));
}

/** Whether the principal holds `action` on at least one index pattern. */
export function holdsIndexAction(principal: Principal, action: IndexAction): boolean {
  if (principal.kind === 'bootstrap') return false;
  return principal.roles.some((role) => role.indexes.some((grant) => grant.permissions.includes(action) && grant.names.length > 0));
}

export function holdsDatabaseAction(principal: Principal, action: DatabaseAction): boolean {
  // the bootstrap key's narrow rights come from the endpoint table's `bootstrap` flag, not a role
  if (principal.kind === 'bootstrap') return false;
  return principal.roles.some((role) => role.database.includes(action));
}

/**
 * Decides whether `principal` may call an endpoint with `requirement`. For index-level
 * requirements, `indices` are the concrete indexes concerned; without them the principal must
 * hold the action on at least one pattern (the handler then narrows to the indexes it touches).
 */
export function authorize(principal: Principal, requirement: Requirement, indices?: readonly string[]): Decision {
  if (requirement.kind === 'public') return ALLOWED;
  if (principal.kind === 'bootstrap') {
    if (principal.retired) return deny(BOOTSTRAP_RETIRED_REASON);
    if (requirement.kind === 'database' && requirement.bootstrap === true) return ALLOWED;
    return deny(BOOTSTRAP_LIMITED_REASON);
  }
  switch (requirement.kind) {
    case 'authenticated':
      return ALLOWED;
    case 'database':
      return holdsDatabaseAction(principal, requirement.action)
        ? ALLOWED
        : deny(`permission [database:${requirement.action}] is required`);
    case 'org':
    case 'org_owner':
      return authorizeOrg(principal, requirement);
    case 'cluster_secret':
      return deny('internal routes take the cluster secret, not a credential');
    case 'index': {
      const action = requirement.action;
      if (indices === undefined) {
        return holdsIndexAction(principal, action) ? ALLOWED : deny(`permission [index:${action}] is required on at least one index`);
      }
      for (const index of indices) {
        if (!canAccessIndex(principal, action, index)) return deny(`permission [index:${action}] on index [${index}] is required`);
      }
      return ALLOWED;
    }
  }
}

function authorizeOrg(principal: Principal, requirement: Extract<Requirement, { kind: 'org' | 'org_owner' }>): Decision {
  if (principal.kind !== 'user') return deny('organisation endpoints are for users of the organisation: an api key holds no organisation role');
  const membership = principal.org;
  if (membership === undefined) return deny(`user [${principal.subject}] is not a member of the organisation`);
  if (requirement.kind === 'org_owner') {
    return isOwnerRole(membership.role) ? ALLOWED : deny('only an owner may close the account');
  }
  return membership.role.permissions.includes(requirement.permission)
    ? ALLOWED
    : deny(`organisation permission [${requirement.permission}] is required; role [${membership.role.name}] does not hold it`);
}
