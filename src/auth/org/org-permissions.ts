/**
 * The organisation permission vocabulary and the four default roles with their exact
 * permission lists. A role also carries the index patterns its holders may search: every role
 * can view data, the default roles everywhere, a custom role where it says.
 */

export const ORG_PERMISSIONS = ['read:org', 'write:org', 'write:api_key', 'read:billing', 'write:billing'] as const;
export type OrgPermission = (typeof ORG_PERMISSIONS)[number];

export const BILLING_PERMISSIONS: readonly OrgPermission[] = ['read:billing', 'write:billing'];

export interface OrgRole {
  name: string;
  permissions: OrgPermission[];
  /** index-name patterns the holder may search (read) */
  indexes: string[];
  /** one of the four default roles, which cannot be changed or deleted */
  builtIn: boolean;
}

export const OWNER = 'owner';

export const DEFAULT_ORG_ROLES: readonly OrgRole[] = Object.freeze([
  { name: OWNER, permissions: [...ORG_PERMISSIONS], indexes: ['*'], builtIn: true },
  // nearly everything: no card updates, and (by the assignment rules) no billing roles to hand out
  { name: 'admin', permissions: ['read:org', 'write:org', 'write:api_key', 'read:billing'], indexes: ['*'], builtIn: true },
  { name: 'contributor', permissions: ['read:org', 'write:api_key'], indexes: ['*'], builtIn: true },
  { name: 'viewer', permissions: ['read:org'], indexes: ['*'], builtIn: true },
] satisfies OrgRole[]);

export function defaultOrgRole(name: string): OrgRole | undefined {
  return DEFAULT_ORG_ROLES.find((r) => r.name === name);
}

export function isOrgPermission(value: unknown): value is OrgPermission {
  return typeof value === 'string' && (ORG_PERMISSIONS as readonly string[]).includes(value);
}

/** The account's owners hold the default role `owner`; a custom role never makes an owner. */
export function isOwnerRole(role: OrgRole): boolean {
  return role.builtIn && role.name === OWNER;
}
