/**
 * What the signed-in key may do, asked of the service once after sign-in: who it is
 * (`_security/_authenticate`) and which privileges it holds (`_security/user/_has_privileges`,
 * the organisation permissions being those of the application `svc-org`). The console shows a
 * screen or an action only when the key holds what it needs; the service still decides every call.
 */
import { ApiError, type Api } from './client.js';
import { askPrivileges } from './privileges.js';

export const ORG_PERMISSIONS = ['read:org', 'write:org', 'write:api_key', 'read:billing', 'write:billing'] as const;
export type OrgPermission = (typeof ORG_PERMISSIONS)[number];
const ORG_APPLICATION = 'svc-org';

export interface Capabilities {
  /** the service answers without a credential: access control is off */
  open: boolean;
  /** who the service takes the key for; undefined for the bootstrap key, which may not ask */
  username: string | undefined;
  /** the user's organisation role, for a member */
  orgRole: string | undefined;
  /** the data API (search, indexes): any key but the bootstrap key */
  data: boolean;
  /** `/v1` roles and API keys may be listed and created (manage_security, or the bootstrap key) */
  security: boolean;
  /** every `/v1` change: deletions, role mappings (manage_security) */
  manageSecurity: boolean;
  /** the organisation permissions the key's user holds through its role */
  org: ReadonlySet<OrgPermission>;
}

interface Authenticate {
  username: string;
  metadata?: { org_role?: unknown };
}

async function answers(call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status !== 401 && err.status < 500) return false;
    throw err;
  }
}

/** Throws ApiError 401 when the service does not accept the credential. */
export async function probeCapabilities(client: Api, open: boolean): Promise<Capabilities> {
  let me: Authenticate;
  try {
    me = await client.get<Authenticate>('/_security/_authenticate');
  } catch (err) {
    // a valid credential that may not even ask is the bootstrap key: it may list and create roles and keys only
    if (!(err instanceof ApiError && err.forbidden)) throw err;
    const security = await answers(client.get('/v1/roles'));
    return { open, username: undefined, orgRole: undefined, data: false, security, manageSecurity: false, org: new Set() };
  }
  const held = await askPrivileges(client, {
    cluster: ['manage_security'],
    application: [{ application: ORG_APPLICATION, resources: ['*'], privileges: [...ORG_PERMISSIONS] }],
  });
  const manageSecurity = held.cluster.manage_security === true;
  const orgHeld = held.application[ORG_APPLICATION]?.['*'] ?? {};
  const orgRole = typeof me.metadata?.org_role === 'string' ? me.metadata.org_role : undefined;
  return {
    open,
    username: me.username,
    orgRole,
    data: true,
    security: manageSecurity,
    manageSecurity,
    org: new Set(ORG_PERMISSIONS.filter((p) => orgHeld[p] === true)),
  };
}
