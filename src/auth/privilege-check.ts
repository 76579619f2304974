/**
 * What a principal may do, asked in Elasticsearch's has-privileges terms and answered with the
 * same decisions that authorize requests: cluster privileges are the database actions, index
 * privileges the index actions (on names or `prefix*` patterns), and the organisation
 * permissions are the application privileges of `ORG_APPLICATION`.
 */
import { authorize, holdsIndexActionOver } from './authorize.js';
import { isConcreteIndexName } from './index-access.js';
import { isOrgPermission } from './org/org-permissions.js';
import { DATABASE_ACTIONS, INDEX_ACTIONS, isDatabaseAction, isIndexAction, type IndexAction } from './permissions.js';
import type { Principal } from './principal.js';

/** The application whose privileges are the organisation permissions (`read:org`, `write:api_key`, …). */
export const ORG_APPLICATION = 'svc-org';
/** Elasticsearch's name for every privilege of its kind. */
const ALL = 'all';

export interface PrivilegeQuestion {
  cluster: string[];
  index: Array<{ names: string[]; privileges: string[] }>;
  application: Array<{ application: string; resources: string[]; privileges: string[] }>;
}

export interface PrivilegeAnswer {
  hasAllRequested: boolean;
  cluster: Record<string, boolean>;
  /** index name or pattern → privilege → held */
  index: Record<string, Record<string, boolean>>;
  /** application → resource → privilege → held */
  application: Record<string, Record<string, Record<string, boolean>>>;
}

/** The access of a principal, or of everyone when access control is off (`undefined`). */
interface Holder {
  cluster(privilege: string): boolean;
  index(privilege: string, name: string): boolean;
  application(application: string, privilege: string): boolean;
}

/**
 * With access control off every cluster and index privilege is held. The organisation exists
 * only with access control on, so its privileges are not.
 */
const EVERYONE: Holder = { cluster: () => true, index: () => true, application: () => false };

function holderOf(principal: Principal): Holder {
  const indexAction = (action: IndexAction, name: string) =>
    isConcreteIndexName(name) ? authorize(principal, { kind: 'index', action }, [name]).allowed : holdsIndexActionOver(principal, action, name);
  return {
    cluster: (privilege) => {
      const actions = privilege === ALL ? DATABASE_ACTIONS : isDatabaseAction(privilege) ? [privilege] : [];
      return actions.length > 0 && actions.every((action) => authorize(principal, { kind: 'database', action }).allowed);
    },
    index: (privilege, name) => {
      const actions = privilege === ALL ? INDEX_ACTIONS : isIndexAction(privilege) ? [privilege] : [];
      return actions.length > 0 && actions.every((action) => indexAction(action, name));
    },
    application: (application, privilege) =>
      application === ORG_APPLICATION && isOrgPermission(privilege) && authorize(principal, { kind: 'org', permission: privilege }).allowed,
  };
}

/**
 * Answers each privilege asked. A name the service does not know (an Elasticsearch privilege it
 * has no counterpart for) is held by nobody while access control is on.
 */
export function checkPrivileges(principal: Principal | undefined, question: PrivilegeQuestion): PrivilegeAnswer {
  const holder = principal === undefined ? EVERYONE : holderOf(principal);
  let all = true;
  const note = (held: boolean) => {
    all &&= held;
    return held;
  };
  const cluster: PrivilegeAnswer['cluster'] = {};
  for (const privilege of question.cluster) cluster[privilege] = note(holder.cluster(privilege));
  const index: PrivilegeAnswer['index'] = {};
  for (const check of question.index) {
    for (const name of check.names) {
      const answers = (index[name] ??= {});
      for (const privilege of check.privileges) answers[privilege] = note(holder.index(privilege, name));
    }
  }
  const application: PrivilegeAnswer['application'] = {};
  for (const check of question.application) {
    const resources = (application[check.application] ??= {});
    for (const resource of check.resources) {
      const answers = (resources[resource] ??= {});
      for (const privilege of check.privileges) answers[privilege] = note(holder.application(check.application, privilege));
    }
  }
  return { hasAllRequested: all, cluster, index, application };
}
