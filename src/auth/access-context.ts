/**
 * What a handler may do on indexes for the request at hand. The HTTP layer attaches one to
 * every request; with RBAC off it allows everything.
 */
import { canAccessIndex } from './authorize.js';
import type { IndexAction } from './permissions.js';
import type { Principal } from './principal.js';

export interface AccessContext {
  /** who acts, for audit lines: `api_key:<id>`, `user:<sub>`, `bootstrap`, `anonymous` */
  readonly principalLabel: string;
  /** false when RBAC is off and every check passes */
  readonly enforced: boolean;
  can(action: IndexAction, index: string): boolean;
}

export const ALLOW_ALL: AccessContext = Object.freeze({
  principalLabel: 'anonymous',
  enforced: false,
  can: () => true,
});

/** For requests on public endpoints while RBAC is on: no index is reachable. */
export const DENY_ALL: AccessContext = Object.freeze({
  principalLabel: 'anonymous',
  enforced: true,
  can: () => false,
});

export function accessForPrincipal(principal: Principal): AccessContext {
  return {
    principalLabel: principal.label,
    enforced: true,
    can: (action, index) => canAccessIndex(principal, action, index),
  };
}
