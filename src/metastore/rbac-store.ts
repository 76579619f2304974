/**
 * RBAC records in the metastore (tables `roles`, `api_keys`, `role_mappings`; the bootstrap
 * retirement is the `bootstrap_consumed` entry of `settings`). Implements the repository
 * contract of src/auth; JSON columns are text, ids come from the database, changes run in
 * serializable transactions where the dialect has isolation levels.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import type {
  DatabaseAction,
  IndexGrant,
  NewStoredApiKey,
  NewStoredRole,
  NewStoredRoleMapping,
  RbacRepository,
  RoleContent,
  StoredApiKey,
  StoredRole,
  StoredRoleMapping,
} from '../auth/index.js';
import { uniqueOrConflict } from './record-conflict.js';
import type { MetastoreSchema } from './schema.js';
import { parseJsonArray, toJsonText } from './values.js';

export interface RolesTable {
  id: Generated<number>;
  name: string;
  /** JSON array of database actions */
  database_actions: string;
  /** JSON array of `{ names, permissions }` */
  index_grants: string;
  /** ISO 8601 UTC */
  created_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  role_id: number;
  key_prefix: string;
  /** hex SHA-256 of the key value */
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface RoleMappingsTable {
  id: Generated<number>;
  name: string;
  /** JSON array of role ids */
  role_ids: string;
  created_at: string;
}

export type RbacTables = {
  roles: RolesTable;
  api_keys: ApiKeysTable;
  role_mappings: RoleMappingsTable;
};

type Db = Kysely<MetastoreSchema & RbacTables>;

export const BOOTSTRAP_CONSUMED_KEY = 'bootstrap_consumed';

export class RbacStore implements RbacRepository {
  private readonly db: Db;

  /** `trx`: the transaction a store made in `transaction()` works in, instead of `db` */
  constructor(db: Kysely<MetastoreSchema> | undefined, trx?: Db) {
    if (trx !== undefined) this.db = trx;
    else if (db !== undefined) this.db = db.withTables<RbacTables>();
    else throw new TypeError('RbacStore needs a database');
  }

  async transaction<T>(fn: (repo: RbacRepository) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return fn(this);
    // SQLite ignores the isolation level (its single writer serializes anyway)
    return this.db
      .transaction()
      .setIsolationLevel('serializable')
      .execute((trx) => fn(new RbacStore(undefined, trx)));
  }

  // ---- roles

  async listRoles(): Promise<StoredRole[]> {
    const rows = await this.db.selectFrom('roles').selectAll().orderBy('id').execute();
    return rows.map(toRole);
  }

  async findRole(id: number): Promise<StoredRole | undefined> {
    const row = await this.db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRole(row);
  }

  async findRoleByName(name: string): Promise<StoredRole | undefined> {
    const row = await this.db.selectFrom('roles').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toRole(row);
  }

  async findRolesByIds(ids: readonly number[]): Promise<StoredRole[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('roles').selectAll().where('id', 'in', [...ids]).orderBy('id').execute();
    return rows.map(toRole);
  }

  async insertRole(role: NewStoredRole): Promise<StoredRole> {
    const row = await uniqueOrConflict(
      this.db
        .insertInto('roles')
        .values({
          name: role.name,
          database_actions: toJsonText(role.database, 'role database actions'),
          index_grants: toJsonText(role.indexes, 'role index grants'),
          created_at: role.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      `role [${role.name}] already exists`,
    );
    return toRole(row);
  }

  async updateRole(id: number, content: RoleContent): Promise<StoredRole | undefined> {
    const result = await uniqueOrConflict(
      this.db
        .updateTable('roles')
        .set({
          name: content.name,
          database_actions: toJsonText(content.database, 'role database actions'),
          index_grants: toJsonText(content.indexes, 'role index grants'),
        })
        .where('id', '=', id)
        .executeTakeFirst(),
      `role [${content.name}] already exists`,
    );
    return result.numUpdatedRows === 0n ? undefined : this.findRole(id);
  }

  async deleteRole(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('roles').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  // ---- api keys (active ones only, except where said)

  async listApiKeys(): Promise<StoredApiKey[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('revoked_at', 'is', null).orderBy('id').execute();
    return rows.map(toApiKey);
  }

  async findApiKey(id: number): Promise<StoredApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return row && toApiKey(row);
  }

  async findApiKeyByName(name: string): Promise<StoredApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('name', '=', name).where('revoked_at', 'is', null).executeTakeFirst();
    return row && toApiKey(row);
  }

  async findApiKeysByPrefix(keyPrefix: string): Promise<StoredApiKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_prefix', '=', keyPrefix)
      .where('revoked_at', 'is', null)
      .execute();
    return rows.map(toApiKey);
  }

  async apiKeysOfRole(roleId: number): Promise<StoredApiKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('role_id', '=', roleId)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map(toApiKey);
  }

  async insertApiKey(key: NewStoredApiKey): Promise<StoredApiKey> {
    const row = await uniqueOrConflict(
      this.db
        .insertInto('api_keys')
        .values({
          name: key.name,
          role_id: key.roleId,
          key_prefix: key.keyPrefix,
          key_hash: key.keyHash,
          created_at: key.createdAt,
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      `api key [${key.name}] already exists`,
    );
    return toApiKey(row);
  }

  async revokeApiKey(id: number, revokedAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: revokedAt })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  // ---- role mappings

  async listRoleMappings(): Promise<StoredRoleMapping[]> {
    const rows = await this.db.selectFrom('role_mappings').selectAll().orderBy('id').execute();
    return rows.map(toRoleMapping);
  }

  async findRoleMapping(id: number): Promise<StoredRoleMapping | undefined> {
    const row = await this.db.selectFrom('role_mappings').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRoleMapping(row);
  }

  async findRoleMappingByName(name: string): Promise<StoredRoleMapping | undefined> {
    const row = await this.db.selectFrom('role_mappings').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toRoleMapping(row);
  }

  async findRoleMappingsByNames(names: readonly string[]): Promise<StoredRoleMapping[]> {
    if (names.length === 0) return [];
    const rows = await this.db.selectFrom('role_mappings').selectAll().where('name', 'in', [...names]).orderBy('id').execute();
    return rows.map(toRoleMapping);
  }

  async insertRoleMapping(mapping: NewStoredRoleMapping): Promise<StoredRoleMapping> {
    const row = await uniqueOrConflict(
      this.db
        .insertInto('role_mappings')
        .values({ name: mapping.name, role_ids: toJsonText(mapping.roleIds, 'role mapping roles'), created_at: mapping.createdAt })
        .returningAll()
        .executeTakeFirstOrThrow(),
      `role mapping [${mapping.name}] already exists`,
    );
    return toRoleMapping(row);
  }

  async updateRoleMapping(id: number, content: Pick<StoredRoleMapping, 'name' | 'roleIds'>): Promise<StoredRoleMapping | undefined> {
    const result = await uniqueOrConflict(
      this.db
        .updateTable('role_mappings')
        .set({ name: content.name, role_ids: toJsonText(content.roleIds, 'role mapping roles') })
        .where('id', '=', id)
        .executeTakeFirst(),
      `role mapping [${content.name}] already exists`,
    );
    return result.numUpdatedRows === 0n ? undefined : this.findRoleMapping(id);
  }

  async deleteRoleMapping(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('role_mappings').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  // ---- bootstrap key

  async bootstrapRetiredAt(): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', BOOTSTRAP_CONSUMED_KEY).executeTakeFirst();
    if (row === undefined) return undefined;
    const value: unknown = JSON.parse(row.value);
    return typeof value === 'string' ? value : String(value);
  }

  async retireBootstrap(at: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key: BOOTSTRAP_CONSUMED_KEY, value: toJsonText(at, 'bootstrap retirement time') })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
}

function toRole(row: Selectable<RolesTable>): StoredRole {
  return {
    id: row.id,
    name: row.name,
    database: parseJsonArray(row.database_actions, `database actions of role ${row.id}`) as DatabaseAction[],
    indexes: parseJsonArray(row.index_grants, `index grants of role ${row.id}`) as IndexGrant[],
    createdAt: row.created_at,
  };
}

function toApiKey(row: Selectable<ApiKeysTable>): StoredApiKey {
  return {
    id: row.id,
    name: row.name,
    roleId: row.role_id,
    keyPrefix: row.key_prefix,
    keyHash: row.key_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

function toRoleMapping(row: Selectable<RoleMappingsTable>): StoredRoleMapping {
  return {
    id: row.id,
    name: row.name,
    roleIds: parseJsonArray(row.role_ids, `roles of role mapping ${row.id}`) as number[],
    createdAt: row.created_at,
  };
}
