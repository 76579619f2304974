/**
 * The organisation's stored records and the repository contract the metastore implements: one
 * account (with its card), its users (each with exactly one role, by name), its custom roles and
 * its invoices. Default roles are not stored; they live in org-permissions.ts.
 */
import type { OrgPermission } from './org-permissions.js';

export interface StoredOrgAccount {
  name: string;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
}

export interface StoredOrgUser {
  id: number;
  /** the user's `sub` at the identity provider */
  subject: string;
  /** name of the user's one role */
  role: string;
  createdAt: string;
  /** audit label of who added the user */
  invitedBy: string;
}

export interface StoredOrgRole {
  name: string;
  permissions: OrgPermission[];
  indexes: string[];
  createdAt: string;
}

/** What the service keeps of the account's card: never the card number. */
export interface BillingCard {
  holder: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  updatedAt: string;
}

export interface StoredInvoice {
  id: number;
  number: string;
  /** YYYY-MM-DD */
  issuedOn: string;
  amountCents: number;
  /** ISO 4217, upper case */
  currency: string;
  status: 'open' | 'paid' | 'void';
  createdAt: string;
}

export type NewOrgUser = Omit<StoredOrgUser, 'id'>;
export type NewInvoice = Omit<StoredInvoice, 'id'>;

/**
 * Persistence of the organisation. Unique names (users' subjects, custom role names, invoice
 * numbers) are enforced by the store too; a violation surfaces as `RecordConflictError`.
 */
export interface OrgRepository {
  /** runs `fn` in one transaction (serializable where the database offers it) */
  transaction<T>(fn: (repo: OrgRepository) => Promise<T>): Promise<T>;

  findAccount(): Promise<StoredOrgAccount | undefined>;
  insertAccount(account: StoredOrgAccount): Promise<void>;
  /** removes the account and everything it holds: users, custom roles, card, invoices */
  deleteAccount(): Promise<void>;

  listUsers(): Promise<StoredOrgUser[]>;
  findUser(id: number): Promise<StoredOrgUser | undefined>;
  findUserBySubject(subject: string): Promise<StoredOrgUser | undefined>;
  insertUser(user: NewOrgUser): Promise<StoredOrgUser>;
  setUserRole(id: number, role: string): Promise<void>;
  /** moves every holder of role `from` to role `to` (a custom role was renamed) */
  renameUsersRole(from: string, to: string): Promise<void>;
  deleteUser(id: number): Promise<void>;
  countUsersWithRole(role: string): Promise<number>;

  listCustomRoles(): Promise<StoredOrgRole[]>;
  findCustomRole(name: string): Promise<StoredOrgRole | undefined>;
  insertCustomRole(role: StoredOrgRole): Promise<void>;
  updateCustomRole(name: string, role: Omit<StoredOrgRole, 'createdAt'>): Promise<void>;
  deleteCustomRole(name: string): Promise<void>;

  findCard(): Promise<BillingCard | undefined>;
  putCard(card: BillingCard): Promise<void>;
  listInvoices(): Promise<StoredInvoice[]>;
  insertInvoice(invoice: NewInvoice): Promise<StoredInvoice>;
}
