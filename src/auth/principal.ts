/**
 * Who is acting: the bootstrap key, an API key, or a user authenticated by an external identity
 * provider. A principal carries the grants of its roles, resolved at authentication time from
 * the stored records, and a label for audit lines that never contains a secret.
 */
import type { OrgMembership } from './org/index.js';
import type { RoleGrants } from './permissions.js';

export interface BootstrapPrincipal {
  kind: 'bootstrap';
  label: 'bootstrap';
  /** an API key holding manage_security exists, so the bootstrap key no longer works */
  retired: boolean;
}

export interface ApiKeyPrincipal {
  kind: 'api_key';
  keyId: number;
  label: string;
  roles: RoleGrants[];
}

export interface UserPrincipal {
  kind: 'user';
  subject: string;
  label: string;
  roles: RoleGrants[];
  /** the user's one organisation role, when the user is a member */
  org?: OrgMembership;
}

export type Principal = BootstrapPrincipal | ApiKeyPrincipal | UserPrincipal;

export function bootstrapPrincipal(retired: boolean): BootstrapPrincipal {
  return { kind: 'bootstrap', label: 'bootstrap', retired };
}

export function apiKeyPrincipal(keyId: number, roles: RoleGrants[]): ApiKeyPrincipal {
  return { kind: 'api_key', keyId, label: `api_key:${keyId}`, roles };
}

export function userPrincipal(subject: string, roles: RoleGrants[], org?: OrgMembership): UserPrincipal {
  const principal: UserPrincipal = { kind: 'user', subject, label: `user:${subject}`, roles };
  if (org !== undefined) principal.org = org;
  return principal;
}
