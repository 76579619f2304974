/**
 * The RBAC records as the API and authentication see them: creating, changing and deleting
 * roles, API keys and role mappings with their rules (unique names, references that must
 * exist, roles in use cannot go), the audit line for each change, and the lookups that turn a
 * credential into grants. It caches nothing, so every change counts from the next request on.
 */
import { ConflictError, NotFoundError, BadRequestError } from '../common/index.js';
import { generateApiKey } from './api-key.js';
import type { AuditLog, RecordEvent } from './audit.js';
import type { ApiKeyCandidate, CredentialRecords } from './authenticator.js';
import type { RoleGrants } from './permissions.js';
import { type RbacRepository, type StoredApiKey, type StoredRole, type StoredRoleMapping } from './records.js';
import type { ApiKeyInput, RoleInput, RoleMappingInput } from './record-validation.js';
import { writeTransaction } from './write-transaction.js';

export interface RoleView {
  id: number;
  name: string;
  database: RoleGrants['database'];
  indexes: RoleGrants['indexes'];
}

export interface ApiKeyView {
  id: number;
  name: string;
  /** role name */
  role: string;
  createdAt: string;
}

export interface RoleMappingView {
  id: number;
  name: string;
  /** service role names */
  roles: string[];
  createdAt: string;
}

export interface RbacServiceOptions {
  audit?: AuditLog;
  clock?: () => Date;
}

export class RbacService implements CredentialRecords {
  private readonly audit: AuditLog | undefined;
  private readonly clock: () => Date;

  constructor(
    private readonly repo: RbacRepository,
    opts: RbacServiceOptions = {},
  ) {
    this.audit = opts.audit;
    this.clock = opts.clock ?? (() => new Date());
  }

  // ---- roles

  async listRoles(): Promise<RoleView[]> {
    return (await this.repo.listRoles()).map(roleView);
  }

  async getRole(id: number): Promise<RoleView> {
    return roleView(await this.mustFindRole(this.repo, id));
  }

  async createRole(input: RoleInput, actor: string): Promise<RoleView> {
    const role = await this.write(async (tx) => {
      if (await tx.findRoleByName(input.name)) throw duplicate('role', input.name);
      return tx.insertRole({ ...input, createdAt: this.now() });
    }, 'role', input.name);
    this.record('role.created', actor, role);
    return roleView(role);
  }

  async updateRole(id: number, input: RoleInput, actor: string): Promise<RoleView> {
    const role = await this.write(async (tx) => {
      await this.mustFindRole(tx, id);
      const sameName = await tx.findRoleByName(input.name);
      if (sameName !== undefined && sameName.id !== id) throw duplicate('role', input.name);
      const updated = await tx.updateRole(id, input);
      if (updated === undefined) throw notFound('role', id);
      if (updated.database.includes('manage_security') && (await tx.apiKeysOfRole(id)).length > 0) {
        await tx.retireBootstrap(this.now());
      }
      return updated;
    }, 'role', input.name);
    this.record('role.updated', actor, role);
    return roleView(role);
  }

  async deleteRole(id: number, actor: string): Promise<RoleView> {
    const role = await this.write(async (tx) => {
      const role = await this.mustFindRole(tx, id);
      const keys = await tx.apiKeysOfRole(id);
      const mappings = (await tx.listRoleMappings()).filter((m) => m.roleIds.includes(id));
      if (keys.length > 0 || mappings.length > 0) {
        const users: string[] = [];
        if (keys.length > 0) users.push(`api keys [${keys.map((k) => k.name).join(', ')}]`);
        if (mappings.length > 0) users.push(`role mappings [${mappings.map((m) => m.name).join(', ')}]`);
        throw new ConflictError(`role [${role.name}] is used by ${users.join(' and ')}; change or delete them first`, 'illegal_state_exception');
      }
      await tx.deleteRole(id);
      return role;
    });
    this.record('role.deleted', actor, role);
    return roleView(role);
  }

  // ---- api keys

  async listApiKeys(): Promise<ApiKeyView[]> {
    const keys = await this.repo.listApiKeys();
    const names = await this.roleNames(this.repo, keys.map((k) => k.roleId));
    return keys.map((k) => apiKeyView(k, names));
  }

  /** Creates a key; the returned `apiKey` value is the only time the secret is seen. */
  async createApiKey(input: ApiKeyInput, actor: string): Promise<ApiKeyView & { apiKey: string }> {
    const secret = generateApiKey();
    const { key, role } = await this.write(async (tx) => {
      const role = await tx.findRoleByName(input.role);
      if (role === undefined) throw new BadRequestError(`role [${input.role}] does not exist`, 'action_request_validation_exception');
      if (await tx.findApiKeyByName(input.name)) throw duplicate('api key', input.name);
      const createdAt = this.now();
      const key = await tx.insertApiKey({ name: input.name, roleId: role.id, keyPrefix: secret.lookupId, keyHash: secret.hash, createdAt });
      if (role.database.includes('manage_security')) await tx.retireBootstrap(createdAt);
      return { key, role };
    }, 'api key', input.name);
    this.record('api_key.created', actor, key);
    return { ...apiKeyView(key, new Map([[role.id, role.name]])), apiKey: secret.value };
  }

  async revokeApiKey(id: number, actor: string): Promise<ApiKeyView> {
    const { key, roleName } = await this.write(async (tx) => {
      const key = await tx.findApiKey(id);
      if (key === undefined) throw notFound('api key', id);
      await tx.revokeApiKey(id, this.now());
      const role = await tx.findRole(key.roleId);
      return { key, roleName: role?.name ?? '' };
    });
    this.record('api_key.revoked', actor, key);
    return apiKeyView(key, new Map([[key.roleId, roleName]]));
  }

  /**
   * Gives a key a new secret: the old value stops working at once, the new one is returned once.
   * The key keeps its name and role under a new id; the old record stays revoked for the audit
   * trail. `mayRotate` sees the key's role first and throws to refuse.
   */
  async rotateApiKey(id: number, actor: string, mayRotate: (role: StoredRole | undefined) => void): Promise<ApiKeyView & { apiKey: string }> {
    const secret = generateApiKey();
    const { key, roleName } = await this.write(async (tx) => {
      const old = await tx.findApiKey(id);
      if (old === undefined) throw notFound('api key', id);
      const role = await tx.findRole(old.roleId);
      mayRotate(role);
      const now = this.now();
      await tx.revokeApiKey(id, now);
      const key = await tx.insertApiKey({ name: old.name, roleId: old.roleId, keyPrefix: secret.lookupId, keyHash: secret.hash, createdAt: now });
      return { key, roleName: role?.name ?? '' };
    });
    this.record('api_key.rotated', actor, key);
    return { ...apiKeyView(key, new Map([[key.roleId, roleName]])), apiKey: secret.value };
  }

  // ---- role mappings

  async listRoleMappings(): Promise<RoleMappingView[]> {
    const mappings = await this.repo.listRoleMappings();
    const names = await this.roleNames(this.repo, mappings.flatMap((m) => m.roleIds));
    return mappings.map((m) => mappingView(m, names));
  }

  async getRoleMapping(id: number): Promise<RoleMappingView> {
    const mapping = await this.repo.findRoleMapping(id);
    if (mapping === undefined) throw notFound('role mapping', id);
    return mappingView(mapping, await this.roleNames(this.repo, mapping.roleIds));
  }

  async createRoleMapping(input: RoleMappingInput, actor: string): Promise<RoleMappingView> {
    const { mapping, names } = await this.write(async (tx) => {
      const roles = await this.mustFindRolesByName(tx, input.roles);
      if (await tx.findRoleMappingByName(input.name)) throw duplicate('role mapping', input.name);
      const mapping = await tx.insertRoleMapping({ name: input.name, roleIds: roles.map((r) => r.id), createdAt: this.now() });
      return { mapping, names: new Map(roles.map((r) => [r.id, r.name])) };
    }, 'role mapping', input.name);
    this.record('role_mapping.created', actor, mapping);
    return mappingView(mapping, names);
  }

  /** Creates the mapping named `input.name`, or replaces its roles when it exists. */
  async upsertRoleMapping(input: RoleMappingInput, actor: string): Promise<{ mapping: RoleMappingView; created: boolean }> {
    const { mapping, names, created } = await this.write(async (tx) => {
      const roles = await this.mustFindRolesByName(tx, input.roles);
      const roleIds = roles.map((r) => r.id);
      const names = new Map(roles.map((r) => [r.id, r.name]));
      const existing = await tx.findRoleMappingByName(input.name);
      if (existing === undefined) {
        return { mapping: await tx.insertRoleMapping({ name: input.name, roleIds, createdAt: this.now() }), names, created: true };
      }
      const updated = await tx.updateRoleMapping(existing.id, { name: input.name, roleIds });
      if (updated === undefined) throw notFound('role mapping', existing.id);
      return { mapping: updated, names, created: false };
    }, 'role mapping', input.name);
    this.record(created ? 'role_mapping.created' : 'role_mapping.updated', actor, mapping);
    return { mapping: mappingView(mapping, names), created };
  }

  async updateRoleMapping(id: number, input: RoleMappingInput, actor: string): Promise<RoleMappingView> {
    const { mapping, names } = await this.write(async (tx) => {
      if ((await tx.findRoleMapping(id)) === undefined) throw notFound('role mapping', id);
      const roles = await this.mustFindRolesByName(tx, input.roles);
      const sameName = await tx.findRoleMappingByName(input.name);
      if (sameName !== undefined && sameName.id !== id) throw duplicate('role mapping', input.name);
      const mapping = await tx.updateRoleMapping(id, { name: input.name, roleIds: roles.map((r) => r.id) });
      if (mapping === undefined) throw notFound('role mapping', id);
      return { mapping, names: new Map(roles.map((r) => [r.id, r.name])) };
    }, 'role mapping', input.name);
    this.record('role_mapping.updated', actor, mapping);
    return mappingView(mapping, names);
  }

  async deleteRoleMapping(id: number, actor: string): Promise<RoleMappingView> {
    const { mapping, names } = await this.write(async (tx) => {
      const mapping = await tx.findRoleMapping(id);
      if (mapping === undefined) throw notFound('role mapping', id);
      const names = await this.roleNames(tx, mapping.roleIds);
      await tx.deleteRoleMapping(id);
      return { mapping, names };
    });
    this.record('role_mapping.deleted', actor, mapping);
    return mappingView(mapping, names);
  }

  // ---- credential lookups (CredentialRecords)

  async apiKeyCandidates(lookupId: string): Promise<ApiKeyCandidate[]> {
    const keys = await this.repo.findApiKeysByPrefix(lookupId);
    if (keys.length === 0) return [];
    const roles = new Map((await this.repo.findRolesByIds(keys.map((k) => k.roleId))).map((r) => [r.id, r]));
    return keys.map((k) => ({ id: k.id, keyHash: k.keyHash, role: roles.get(k.roleId) }));
  }

  /**
   * Retired once recorded, and also whenever an active key holds manage_security (a database
   * written before the record existed). The record makes it one-way: revoking every
   * administrator key later does not bring the bootstrap key back.
   */
  async bootstrapRetired(): Promise<boolean> {
    if ((await this.repo.bootstrapRetiredAt()) !== undefined) return true;
    for (const role of await this.repo.listRoles()) {
      if (role.database.includes('manage_security') && (await this.repo.apiKeysOfRole(role.id)).length > 0) return true;
    }
    return false;
  }

  async rolesForProviderRoles(providerRoles: string[]): Promise<RoleGrants[]> {
    if (providerRoles.length === 0) return [];
    const mappings = await this.repo.findRoleMappingsByNames(providerRoles);
    const ids = [...new Set(mappings.flatMap((m) => m.roleIds))];
    if (ids.length === 0) return [];
    return this.repo.findRolesByIds(ids);
  }

  // ---- helpers

  private now(): string {
    return this.clock().toISOString();
  }

  /** Runs a change in a transaction (see writeTransaction); a unique-index race names the record. */
  private write<T>(fn: (tx: RbacRepository) => Promise<T>, what?: string, name?: string): Promise<T> {
    return writeTransaction((f: (tx: RbacRepository) => Promise<T>) => this.repo.transaction(f), fn, (err) =>
      what !== undefined && name !== undefined ? duplicate(what, name) : new ConflictError(err.message, 'illegal_state_exception'),
    );
  }

  private async mustFindRole(repo: RbacRepository, id: number): Promise<StoredRole> {
    const role = await repo.findRole(id);
    if (role === undefined) throw notFound('role', id);
    return role;
  }

  private async mustFindRolesByName(repo: RbacRepository, names: string[]): Promise<StoredRole[]> {
    const roles: StoredRole[] = [];
    for (const name of names) {
      const role = await repo.findRoleByName(name);
      if (role === undefined) throw new BadRequestError(`role [${name}] does not exist`, 'action_request_validation_exception');
      roles.push(role);
    }
    return roles;
  }

  private async roleNames(repo: RbacRepository, ids: number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    return new Map((await repo.findRolesByIds(unique)).map((r) => [r.id, r.name]));
  }

  private record(event: RecordEvent, actor: string, record: { id?: number; name: string }): void {
    this.audit?.recordChanged(event, actor, record);
  }
}

function duplicate(what: string, name: string): ConflictError {
  return new ConflictError(`${what} [${name}] already exists`, 'resource_already_exists_exception');
}

function notFound(what: string, id: number): NotFoundError {
  return new NotFoundError(`${what} [${id}] not found`);
}

function roleView(role: StoredRole): RoleView {
  return { id: role.id, name: role.name, database: role.database, indexes: role.indexes };
}

function apiKeyView(key: StoredApiKey, roleNames: Map<number, string>): ApiKeyView {
  return { id: key.id, name: key.name, role: roleNames.get(key.roleId) ?? '', createdAt: key.createdAt };
}

function mappingView(mapping: StoredRoleMapping, roleNames: Map<number, string>): RoleMappingView {
  return { id: mapping.id, name: mapping.name, roles: mapping.roleIds.map((id) => roleNames.get(id) ?? ''), createdAt: mapping.createdAt };
}
