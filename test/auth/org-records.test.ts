/** The organisation service over the real metastore store, on SQLite and on PostgreSQL. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { ConflictError, ForbiddenError } from '../../src/common/index.js';
import { DEFAULT_ORG_ROLES, OrgService, createAuditLog, type OrgActor } from '../../src/auth/index.js';
import { createLogger } from '../../src/observability/index.js';
import { eachDialect } from '../metastore/dialects.js';

const [OWNER_ROLE, ADMIN_ROLE] = DEFAULT_ORG_ROLES;
const owner = (subject: string): OrgActor => ({ label: `user:${subject}`, role: OWNER_ROLE! });

eachDialect((it) => {
  it('two owners demoting each other at once: one wins, the account keeps an owner', async (ms) => {
    const org = new OrgService(ms.org);
    await org.createAccount({ name: 'acme', owner: 'olivia' }, 'api_key:1', undefined);
    const otto = await org.inviteUser({ subject: 'otto', role: 'owner' }, owner('olivia'));
    const olivia = (await org.listUsers()).find((u) => u.subject === 'olivia')!;
    for (let round = 0; round < 5; round++) {
      const results = await Promise.allSettled([
        org.changeUserRole(otto.id, 'viewer', owner('olivia')),
        org.changeUserRole(olivia.id, 'viewer', owner('otto')),
      ]);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results));
      const failure = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      assert.ok(failure.reason instanceof ConflictError && /last owner/.test(failure.reason.message), String(failure.reason));
      const owners = (await org.listUsers()).filter((u) => u.role === 'owner');
      assert.equal(owners.length, 1);
      // put things back for the next round
      const demoted = owners[0]!.subject === 'olivia' ? otto : olivia;
      await org.changeUserRole(demoted.id, 'owner', owner(owners[0]!.subject));
    }
  });

  it('every change writes an audit line naming its actor, never a card number', async (ms) => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const org = new OrgService(ms.org, { audit: createAuditLog(createLogger('info', sink)) });
    await org.createAccount({ name: 'acme', owner: 'olivia' }, 'api_key:1', undefined);
    const vera = await org.inviteUser({ subject: 'vera', role: 'viewer' }, owner('olivia'));
    await org.createRole({ name: 'ops', permissions: ['read:org'], indexes: ['logs-*'] }, owner('olivia'));
    await org.changeUserRole(vera.id, 'ops', owner('olivia'));
    await org.updateCard({ holder: 'Acme', brand: 'Visa', last4: '4242', exp_month: 1, exp_year: 2031 }, owner('olivia'));
    await assert.rejects(org.removeUser(vera.id, { label: 'user:adam', role: { ...ADMIN_ROLE!, indexes: ['logs-app'] } }), ForbiddenError);
    await org.removeUser(vera.id, owner('olivia'));
    const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event: string; actor: string; name: string });
    assert.deepEqual(lines.map((l) => [l.event, l.actor, l.name]), [
      ['org.created', 'api_key:1', 'acme'],
      ['org_user.invited', 'user:olivia', 'vera'],
      ['org_role.created', 'user:olivia', 'ops'],
      ['org_user.role_changed', 'user:olivia', 'vera'],
      ['billing.card_updated', 'user:olivia', 'visa 4242'],
      ['org_user.removed', 'user:olivia', 'vera'],
    ]);
  });

  it('closing the account removes users, custom roles, card and invoices', async (ms) => {
    const org = new OrgService(ms.org);
    await org.createAccount({ name: 'acme', owner: 'olivia' }, 'x', undefined);
    await org.createRole({ name: 'ops', permissions: [], indexes: ['*'] }, owner('olivia'));
    await org.inviteUser({ subject: 'vera', role: 'ops' }, owner('olivia'));
    await org.recordInvoice({ number: 'I-1', issued_on: '2024-01-31', amount_cents: 100, currency: 'EUR', status: 'open' }, owner('olivia'));
    await org.updateCard({ holder: 'A', brand: 'visa', last4: '0000', exp_month: 2, exp_year: 2030 }, owner('olivia'));
    await org.closeAccount('acme', owner('olivia'));
    assert.equal(await org.membership('vera'), undefined);
    await org.createAccount({ name: 'acme', owner: 'otto' }, 'x', undefined);
    assert.deepEqual((await org.listUsers()).map((u) => u.subject), ['otto']);
    assert.equal((await org.listRoles()).length, DEFAULT_ORG_ROLES.length);
    assert.equal(await org.getCard(), undefined);
    assert.deepEqual(await org.listInvoices(), []);
    assert.deepEqual((await org.membership('otto'))?.role.name, 'owner');
  });
});
