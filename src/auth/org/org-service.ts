/**
 * The organisation as the API sees it: the account, its users and their one role each, custom
 * roles, the card and invoices. Every change runs in one transaction that re-reads what the
 * rules depend on (the actor's right to the roles concerned, the number of owners), so two
 * concurrent changes cannot together break a rule, and writes one audit line.
 */
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../common/index.js';
import type { AuditLog, RecordEvent } from '../audit.js';
import type { Decision } from '../authorize.js';
import { writeTransaction } from '../write-transaction.js';
import { DEFAULT_ORG_ROLES, OWNER, defaultOrgRole, type OrgRole } from './org-permissions.js';
import type { BillingCard, OrgRepository, StoredInvoice, StoredOrgAccount, StoredOrgUser } from './org-records.js';
import { leavesNoOwner, mayAssign, mayGrant } from './org-rules.js';
import type { AccountInput, CardInput, InvoiceInput, OrgRoleInput, OrgUserInput } from './org-validation.js';

/** Who acts on the organisation: a member with their role, named for the audit trail. */
export interface OrgActor {
  label: string;
  role: OrgRole;
}

/** A member's role as authentication resolves it for a user. */
export interface OrgMembership {
  userId: number;
  role: OrgRole;
}

export interface OrgServiceOptions {
  audit?: AuditLog;
  clock?: () => Date;
}

export class OrgService {
  private readonly audit: AuditLog | undefined;
  private readonly clock: () => Date;

  constructor(
    private readonly repo: OrgRepository,
    opts: OrgServiceOptions = {},
  ) {
    this.audit = opts.audit;
    this.clock = opts.clock ?? (() => new Date());
  }

  // ---- membership (authentication)

  /** The user's role, or undefined when the subject is no member (or there is no account). */
  async membership(subject: string): Promise<OrgMembership | undefined> {
    const user = await this.repo.findUserBySubject(subject);
    if (user === undefined) return undefined;
    const role = await roleNamed(this.repo, user.role);
    return role && { userId: user.id, role };
  }

  // ---- account

  async getAccount(): Promise<StoredOrgAccount & { users: number }> {
    const account = await mustFindAccount(this.repo);
    return { ...account, users: (await this.repo.listUsers()).length };
  }

  /**
   * Opens the account with its first owner: `input.owner`, or the creating user (`creator`)
   * when that is omitted.
   */
  async createAccount(input: AccountInput, actor: string, creator: string | undefined): Promise<{ account: StoredOrgAccount; owner: StoredOrgUser }> {
    const subject = input.owner ?? creator;
    if (subject === undefined) {
      throw new BadRequestError('field [owner] is required when an api key opens the account', 'action_request_validation_exception');
    }
    const result = await this.write(async (tx) => {
      if ((await tx.findAccount()) !== undefined) throw new ConflictError('the organisation account exists already', 'resource_already_exists_exception');
      const account = { name: input.name, createdAt: this.now() };
      await tx.insertAccount(account);
      const owner = await tx.insertUser({ subject, role: OWNER, createdAt: account.createdAt, invitedBy: actor });
      return { account, owner };
    });
    this.record('org.created', actor, { name: result.account.name });
    return result;
  }

  /** Closes the account: its users, custom roles, card and invoices go. `confirm` repeats its name. */
  async closeAccount(confirm: string | undefined, actor: OrgActor): Promise<StoredOrgAccount> {
    const account = await this.write(async (tx) => {
      const account = await mustFindAccount(tx);
      if (confirm !== account.name) {
        throw new BadRequestError(`closing the account cannot be undone: repeat its name in the [confirm] parameter`, 'action_request_validation_exception');
      }
      await tx.deleteAccount();
      return account;
    });
    this.record('org.closed', actor.label, { name: account.name });
    return account;
  }

  // ---- users

  async listUsers(): Promise<StoredOrgUser[]> {
    await mustFindAccount(this.repo);
    return this.repo.listUsers();
  }

  async inviteUser(input: OrgUserInput, actor: OrgActor): Promise<StoredOrgUser> {
    const user = await this.write(async (tx) => {
      await mustFindAccount(tx);
      const role = await mustFindRole(tx, input.role);
      allowOrThrow(mayAssign(actor.role, role));
      if ((await tx.findUserBySubject(input.subject)) !== undefined) throw duplicate('user', input.subject);
      return tx.insertUser({ subject: input.subject, role: role.name, createdAt: this.now(), invitedBy: actor.label });
    }, duplicate('user', input.subject));
    this.record('org_user.invited', actor.label, { id: user.id, name: user.subject });
    return user;
  }

  async changeUserRole(id: number, roleName: string, actor: OrgActor): Promise<StoredOrgUser> {
    const user = await this.write(async (tx) => {
      const user = await mustFindUser(tx, id);
      const from = await mustFindRole(tx, user.role);
      const to = await mustFindRole(tx, roleName);
      // the role asked for first: it names what was attempted (e.g. promotion to owner)
      allowOrThrow(mayAssign(actor.role, to));
      allowOrThrow(mayAssign(actor.role, from));
      if (leavesNoOwner(await tx.countUsersWithRole(OWNER), from, to)) throw lastOwner(user);
      await tx.setUserRole(id, to.name);
      return { ...user, role: to.name };
    });
    this.record('org_user.role_changed', actor.label, { id: user.id, name: user.subject });
    return user;
  }

  async removeUser(id: number, actor: OrgActor): Promise<StoredOrgUser> {
    const user = await this.write(async (tx) => {
      const user = await mustFindUser(tx, id);
      const role = await mustFindRole(tx, user.role);
      allowOrThrow(mayAssign(actor.role, role));
      if (leavesNoOwner(await tx.countUsersWithRole(OWNER), role, undefined)) throw lastOwner(user);
      await tx.deleteUser(id);
      return user;
    });
    this.record('org_user.removed', actor.label, { id: user.id, name: user.subject });
    return user;
  }

  // ---- roles

  /** The four default roles, then the custom ones by name. */
  async listRoles(): Promise<OrgRole[]> {
    await mustFindAccount(this.repo);
    const custom = await this.repo.listCustomRoles();
    return [...DEFAULT_ORG_ROLES, ...custom.map((r) => customRole(r.name, r))];
  }

  async createRole(input: OrgRoleInput, actor: OrgActor): Promise<OrgRole> {
    refuseDefaultName(input.name);
    const role = customRole(input.name, input);
    await this.write(async (tx) => {
      await mustFindAccount(tx);
      allowOrThrow(mayGrant(actor.role, role));
      if ((await tx.findCustomRole(input.name)) !== undefined) throw duplicate('role', input.name);
      await tx.insertCustomRole({ ...input, createdAt: this.now() });
    }, duplicate('role', input.name));
    this.record('org_role.created', actor.label, { name: role.name });
    return role;
  }

  /** Replaces a custom role; a new name moves its holders with it. */
  async updateRole(name: string, input: OrgRoleInput, actor: OrgActor): Promise<OrgRole> {
    refuseDefaultName(name);
    if (input.name !== name) refuseDefaultName(input.name);
    const role = customRole(input.name, input);
    await this.write(async (tx) => {
      const old = await tx.findCustomRole(name);
      if (old === undefined) throw roleNotFound(name);
      allowOrThrow(mayGrant(actor.role, customRole(name, old)));
      allowOrThrow(mayGrant(actor.role, role));
      if (input.name !== name) {
        if ((await tx.findCustomRole(input.name)) !== undefined) throw duplicate('role', input.name);
        await tx.renameUsersRole(name, input.name);
      }
      await tx.updateCustomRole(name, input);
    }, duplicate('role', input.name));
    this.record('org_role.updated', actor.label, { name: role.name });
    return role;
  }

  async deleteRole(name: string, actor: OrgActor): Promise<OrgRole> {
    refuseDefaultName(name);
    const role = await this.write(async (tx) => {
      const stored = await tx.findCustomRole(name);
      if (stored === undefined) throw roleNotFound(name);
      const role = customRole(name, stored);
      allowOrThrow(mayGrant(actor.role, role));
      const holders = await tx.countUsersWithRole(name);
      if (holders > 0) throw new ConflictError(`role [${name}] is held by ${holders} user(s); give them another role first`, 'illegal_state_exception');
      await tx.deleteCustomRole(name);
      return role;
    });
    this.record('org_role.deleted', actor.label, { name });
    return role;
  }

  // ---- billing

  async getCard(): Promise<BillingCard | undefined> {
    await mustFindAccount(this.repo);
    return this.repo.findCard();
  }

  async updateCard(input: CardInput, actor: OrgActor): Promise<BillingCard> {
    const card: BillingCard = {
      holder: input.holder,
      brand: input.brand.toLowerCase(),
      last4: input.last4,
      expMonth: input.exp_month,
      expYear: input.exp_year,
      updatedAt: this.now(),
    };
    await this.write(async (tx) => {
      await mustFindAccount(tx);
      await tx.putCard(card);
    });
    this.record('billing.card_updated', actor.label, { name: `${card.brand} ${card.last4}` });
    return card;
  }

  async listInvoices(): Promise<StoredInvoice[]> {
    await mustFindAccount(this.repo);
    return this.repo.listInvoices();
  }

  async recordInvoice(input: InvoiceInput, actor: OrgActor): Promise<StoredInvoice> {
    const invoice = await this.write(async (tx) => {
      await mustFindAccount(tx);
      return tx.insertInvoice({
        number: input.number,
        issuedOn: input.issued_on,
        amountCents: input.amount_cents,
        currency: input.currency,
        status: input.status,
        createdAt: this.now(),
      });
    }, duplicate('invoice', input.number));
    this.record('billing.invoice_recorded', actor.label, { id: invoice.id, name: invoice.number });
    return invoice;
  }

  // ---- helpers

  private now(): string {
    return this.clock().toISOString();
  }

  private write<T>(fn: (tx: OrgRepository) => Promise<T>, onDuplicate?: ConflictError): Promise<T> {
    return writeTransaction((f: (tx: OrgRepository) => Promise<T>) => this.repo.transaction(f), fn, (err) =>
      onDuplicate ?? new ConflictError(err.message, 'illegal_state_exception'),
    );
  }

  private record(event: RecordEvent, actor: string, record: { id?: number; name: string }): void {
    this.audit?.recordChanged(event, actor, record);
  }
}

function allowOrThrow(decision: Decision): void {
  if (!decision.allowed) throw new ForbiddenError(decision.reason);
}

function customRole(name: string, content: Pick<OrgRole, 'permissions' | 'indexes'>): OrgRole {
  return { name, permissions: content.permissions, indexes: content.indexes, builtIn: false };
}

async function roleNamed(repo: OrgRepository, name: string): Promise<OrgRole | undefined> {
  const builtIn = defaultOrgRole(name);
  if (builtIn !== undefined) return builtIn;
  const stored = await repo.findCustomRole(name);
  return stored && customRole(name, stored);
}

async function mustFindRole(repo: OrgRepository, name: string): Promise<OrgRole> {
  const role = await roleNamed(repo, name);
  if (role === undefined) throw new BadRequestError(`role [${name}] does not exist`, 'action_request_validation_exception');
  return role;
}

async function mustFindAccount(repo: OrgRepository): Promise<StoredOrgAccount> {
  const account = await repo.findAccount();
  if (account === undefined) throw new NotFoundError('no organisation account exists; open one with POST /v1/org');
  return account;
}

async function mustFindUser(repo: OrgRepository, id: number): Promise<StoredOrgUser> {
  const user = await repo.findUser(id);
  if (user === undefined) throw new NotFoundError(`user [${id}] not found`);
  return user;
}

function refuseDefaultName(name: string): void {
  if (defaultOrgRole(name) !== undefined) {
    throw new BadRequestError(`[${name}] is a default role: default roles cannot be created, changed or deleted`, 'illegal_argument_exception');
  }
}

function roleNotFound(name: string): NotFoundError {
  return new NotFoundError(`role [${name}] not found`);
}

function duplicate(what: string, name: string): ConflictError {
  return new ConflictError(`${what} [${name}] already exists`, 'resource_already_exists_exception');
}

function lastOwner(user: StoredOrgUser): ConflictError {
  return new ConflictError(`user [${user.subject}] is the last owner: make another user owner first`, 'illegal_state_exception');
}
