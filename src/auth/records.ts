/**
 * The stored RBAC records and the repository contract the metastore implements. API keys and
 * role mappings point at roles by id, so renaming a role keeps them working; responses show
 * role names. API keys are revoked, not deleted, and only their hash is kept.
 */
import type { DatabaseAction, IndexGrant } from './permissions.js';

export interface StoredRole {
  id: number;
  name: string;
  database: DatabaseAction[];
  indexes: IndexGrant[];
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
}

export interface StoredApiKey {
  id: number;
  name: string;
  roleId: number;
  /** the lookup id embedded in the key value, stored in clear for lookup */
  keyPrefix: string;
  /** hex SHA-256 of the whole key value */
  keyHash: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface StoredRoleMapping {
  id: number;
  /** role name as the external identity provider writes it */
  name: string;
  roleIds: number[];
  createdAt: string;
}

export type RoleContent = Pick<StoredRole, 'name' | 'database' | 'indexes'>;
export type NewStoredRole = Omit<StoredRole, 'id'>;
export type NewStoredApiKey = Omit<StoredApiKey, 'id' | 'revokedAt'>;
export type NewStoredRoleMapping = Omit<StoredRoleMapping, 'id'>;

/**
 * Persistence of roles, API keys and role mappings. Lookups of API keys see active (not
 * revoked) keys only. Unique names are enforced by the store as well as checked by the caller;
 * a violation surfaces as `RecordConflictError`.
 */
export interface RbacRepository {
  /** runs `fn` in one transaction (serializable where the database offers it) */
  transaction<T>(fn: (repo: RbacRepository) => Promise<T>): Promise<T>;

  listRoles(): Promise<StoredRole[]>;
  findRole(id: number): Promise<StoredRole | undefined>;
  findRoleByName(name: string): Promise<StoredRole | undefined>;
  findRolesByIds(ids: readonly number[]): Promise<StoredRole[]>;
  insertRole(role: NewStoredRole): Promise<StoredRole>;
  updateRole(id: number, content: RoleContent): Promise<StoredRole | undefined>;
  deleteRole(id: number): Promise<boolean>;

  listApiKeys(): Promise<StoredApiKey[]>;
  findApiKey(id: number): Promise<StoredApiKey | undefined>;
  findApiKeyByName(name: string): Promise<StoredApiKey | undefined>;
  findApiKeysByPrefix(keyPrefix: string): Promise<StoredApiKey[]>;
  apiKeysOfRole(roleId: number): Promise<StoredApiKey[]>;
  insertApiKey(key: NewStoredApiKey): Promise<StoredApiKey>;
  revokeApiKey(id: number, revokedAt: string): Promise<boolean>;

  listRoleMappings(): Promise<StoredRoleMapping[]>;
  findRoleMapping(id: number): Promise<StoredRoleMapping | undefined>;
  findRoleMappingByName(name: string): Promise<StoredRoleMapping | undefined>;
  findRoleMappingsByNames(names: readonly string[]): Promise<StoredRoleMapping[]>;
  insertRoleMapping(mapping: NewStoredRoleMapping): Promise<StoredRoleMapping>;
  updateRoleMapping(id: number, content: Pick<StoredRoleMapping, 'name' | 'roleIds'>): Promise<StoredRoleMapping | undefined>;
  deleteRoleMapping(id: number): Promise<boolean>;

  /** when the bootstrap key stopped working, if it has */
  bootstrapRetiredAt(): Promise<string | undefined>;
  /** records the retirement; a second call keeps the first time */
  retireBootstrap(at: string): Promise<void>;
}

/** A unique name was taken by a concurrent writer between the check and the write. */
export class RecordConflictError extends Error {}
