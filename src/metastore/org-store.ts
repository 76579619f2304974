/**
 * Organisation records in the metastore (tables `org_account`, `org_users`, `org_roles`,
 * `org_invoices`). Implements the repository contract of src/auth/org; JSON columns are text,
 * changes run in serializable transactions where the dialect has isolation levels.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import {
  type BillingCard,
  type NewInvoice,
  type NewOrgUser,
  type OrgPermission,
  type OrgRepository,
  type StoredInvoice,
  type StoredOrgAccount,
  type StoredOrgRole,
  type StoredOrgUser,
} from '../auth/index.js';
import { uniqueOrConflict } from './record-conflict.js';
import type { MetastoreSchema } from './schema.js';
import { parseJsonArray, parseJsonObject, toJsonText } from './values.js';

const ACCOUNT_ID = 1;

export interface OrgAccountTable {
  id: number;
  name: string;
  created_at: string;
  /** JSON BillingCard or null */
  card: string | null;
}

export interface OrgUsersTable {
  id: Generated<number>;
  subject: string;
  role: string;
  created_at: string;
  invited_by: string;
}

export interface OrgRolesTable {
  name: string;
  /** JSON array of permissions */
  permissions: string;
  /** JSON array of index patterns */
  indexes: string;
  created_at: string;
}

export interface OrgInvoicesTable {
  id: Generated<number>;
  number: string;
  issued_on: string;
  amount_cents: number;
  currency: string;
  status: string;
  created_at: string;
}

export type OrgTables = {
  org_account: OrgAccountTable;
  org_users: OrgUsersTable;
  org_roles: OrgRolesTable;
  org_invoices: OrgInvoicesTable;
};

type Db = Kysely<MetastoreSchema & OrgTables>;

export class OrgStore implements OrgRepository {
  private readonly db: Db;

  /** `trx`: the transaction a store made in `transaction()` works in, instead of `db` */
  constructor(db: Kysely<MetastoreSchema> | undefined, trx?: Db) {
    if (trx !== undefined) this.db = trx;
    else if (db !== undefined) this.db = db.withTables<OrgTables>();
    else throw new TypeError('OrgStore needs a database');
  }

  async transaction<T>(fn: (repo: OrgRepository) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return fn(this);
    return this.db
      .transaction()
      .setIsolationLevel('serializable')
      .execute((trx) => fn(new OrgStore(undefined, trx)));
  }

  // ---- account

  async findAccount(): Promise<StoredOrgAccount | undefined> {
    const row = await this.db.selectFrom('org_account').select(['name', 'created_at']).where('id', '=', ACCOUNT_ID).executeTakeFirst();
    return row && { name: row.name, createdAt: row.created_at };
  }

  async insertAccount(account: StoredOrgAccount): Promise<void> {
    await uniqueOrConflict(
      this.db.insertInto('org_account').values({ id: ACCOUNT_ID, name: account.name, created_at: account.createdAt, card: null }).execute(),
      'the organisation account exists already',
    );
  }

  async deleteAccount(): Promise<void> {
    for (const table of ['org_invoices', 'org_roles', 'org_users', 'org_account'] as const) {
      await this.db.deleteFrom(table).execute();
    }
  }

  // ---- users

  async listUsers(): Promise<StoredOrgUser[]> {
    return (await this.db.selectFrom('org_users').selectAll().orderBy('id').execute()).map(toUser);
  }

  async findUser(id: number): Promise<StoredOrgUser | undefined> {
    const row = await this.db.selectFrom('org_users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async findUserBySubject(subject: string): Promise<StoredOrgUser | undefined> {
    const row = await this.db.selectFrom('org_users').selectAll().where('subject', '=', subject).executeTakeFirst();
    return row && toUser(row);
  }

  async insertUser(user: NewOrgUser): Promise<StoredOrgUser> {
    const row = await uniqueOrConflict(
      this.db
        .insertInto('org_users')
        .values({ subject: user.subject, role: user.role, created_at: user.createdAt, invited_by: user.invitedBy })
        .returningAll()
        .executeTakeFirstOrThrow(),
      `user [${user.subject}] already exists`,
    );
    return toUser(row);
  }

  async setUserRole(id: number, role: string): Promise<void> {
    await this.db.updateTable('org_users').set({ role }).where('id', '=', id).execute();
  }

  async renameUsersRole(from: string, to: string): Promise<void> {
    await this.db.updateTable('org_users').set({ role: to }).where('role', '=', from).execute();
  }

  async deleteUser(id: number): Promise<void> {
    await this.db.deleteFrom('org_users').where('id', '=', id).execute();
  }

  async countUsersWithRole(role: string): Promise<number> {
    const row = await this.db.selectFrom('org_users').select((eb) => eb.fn.countAll<number | string>().as('n')).where('role', '=', role).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  // ---- custom roles

  async listCustomRoles(): Promise<StoredOrgRole[]> {
    return (await this.db.selectFrom('org_roles').selectAll().orderBy('name').execute()).map(toRole);
  }

  async findCustomRole(name: string): Promise<StoredOrgRole | undefined> {
    const row = await this.db.selectFrom('org_roles').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toRole(row);
  }

  async insertCustomRole(role: StoredOrgRole): Promise<void> {
    await uniqueOrConflict(
      this.db
        .insertInto('org_roles')
        .values({
          name: role.name,
          permissions: toJsonText(role.permissions, 'role permissions'),
          indexes: toJsonText(role.indexes, 'role indexes'),
          created_at: role.createdAt,
        })
        .execute(),
      `role [${role.name}] already exists`,
    );
  }

  async updateCustomRole(name: string, role: Omit<StoredOrgRole, 'createdAt'>): Promise<void> {
    await uniqueOrConflict(
      this.db
        .updateTable('org_roles')
        .set({ name: role.name, permissions: toJsonText(role.permissions, 'role permissions'), indexes: toJsonText(role.indexes, 'role indexes') })
        .where('name', '=', name)
        .execute(),
      `role [${role.name}] already exists`,
    );
  }

  async deleteCustomRole(name: string): Promise<void> {
    await this.db.deleteFrom('org_roles').where('name', '=', name).execute();
  }

  // ---- billing

  async findCard(): Promise<BillingCard | undefined> {
    const row = await this.db.selectFrom('org_account').select('card').where('id', '=', ACCOUNT_ID).executeTakeFirst();
    if (row?.card == null) return undefined;
    return parseJsonObject(row.card, 'card of the organisation account') as unknown as BillingCard;
  }

  async putCard(card: BillingCard): Promise<void> {
    await this.db.updateTable('org_account').set({ card: toJsonText(card, 'card') }).where('id', '=', ACCOUNT_ID).execute();
  }

  async listInvoices(): Promise<StoredInvoice[]> {
    return (await this.db.selectFrom('org_invoices').selectAll().orderBy('id').execute()).map(toInvoice);
  }

  async insertInvoice(invoice: NewInvoice): Promise<StoredInvoice> {
    const row = await uniqueOrConflict(
      this.db
        .insertInto('org_invoices')
        .values({
          number: invoice.number,
          issued_on: invoice.issuedOn,
          amount_cents: invoice.amountCents,
          currency: invoice.currency,
          status: invoice.status,
          created_at: invoice.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      `invoice [${invoice.number}] already exists`,
    );
    return toInvoice(row);
  }
}

function toUser(row: Selectable<OrgUsersTable>): StoredOrgUser {
  return { id: row.id, subject: row.subject, role: row.role, createdAt: row.created_at, invitedBy: row.invited_by };
}

function toRole(row: Selectable<OrgRolesTable>): StoredOrgRole {
  return {
    name: row.name,
    permissions: parseJsonArray(row.permissions, `permissions of role ${row.name}`) as OrgPermission[],
    indexes: parseJsonArray(row.indexes, `indexes of role ${row.name}`) as string[],
    createdAt: row.created_at,
  };
}

function toInvoice(row: Selectable<OrgInvoicesTable>): StoredInvoice {
  return {
    id: row.id,
    number: row.number,
    issuedOn: row.issued_on,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    status: row.status as StoredInvoice['status'],
    createdAt: row.created_at,
  };
}
