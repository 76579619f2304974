/**
 * The organisation API over a real socket on the real node, with users signed in through a real
 * identity provider: each rule of the hosted offering's roles, including the moves an attacker
 * inside the organisation would try.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ndjson, request, startTestNode, type JsonResponse, type TestNode } from '../support/node.js';
import { startIdentityProvider, type IdentityProvider } from '../support/identity-provider.js';

const BOOTSTRAP = 'bootstrap-for-org-tests';
const AUDIENCE = 'svc-org';
type ErrorBody = { error: { type: string; reason: string }; status: number };
type User = { id: number; subject: string; role: string };

let idp: IdentityProvider;
let node: TestNode;
let adminKey = '';
let dataKey = '';

async function as(credential: string, method: string, path: string, body?: object): Promise<JsonResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${credential}` };
  return request(`${node.url}${path}`, { method, body, headers });
}

/** A fresh token for the user with this subject. */
const user = (subject: string) => idp.token(AUDIENCE, { subject });

async function userAs(subject: string, method: string, path: string, body?: object): Promise<JsonResponse> {
  return as(await user(subject), method, path, body);
}

async function usersByName(): Promise<Map<string, User>> {
  const res = await userAs('olivia', 'GET', '/v1/org/users');
  return new Map((res.body as unknown as User[]).map((u) => [u.subject, u]));
}

async function idOf(subject: string): Promise<number> {
  const found = (await usersByName()).get(subject);
  assert.ok(found, `${subject} is a member`);
  return found.id;
}

function refused(res: JsonResponse, status: number, reason: RegExp): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match((res.body as unknown as ErrorBody).error.reason, reason);
}

before(async () => {
  idp = await startIdentityProvider();
  node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP, SVC_JWT_AUDIENCE: AUDIENCE, SVC_JWT_ISSUER: idp.issuer });
  const adminRole = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };
  assert.equal((await as(BOOTSTRAP, 'POST', '/v1/roles', adminRole)).status, 200);
  adminKey = ((await as(BOOTSTRAP, 'POST', '/v1/api_keys', { name: 'admin', role: 'admin' })).body as { api_key: string }).api_key;
  assert.equal((await as(adminKey, 'POST', '/v1/roles', { name: 'shipper', database: [], indexes: [{ names: ['logs-*'], permissions: ['write'] }] })).status, 200);
  dataKey = ((await as(adminKey, 'POST', '/v1/api_keys', { name: 'shipper', role: 'shipper' })).body as { api_key: string }).api_key;
  const bulk = await request(`${node.url}/_bulk`, {
    body: ndjson([{ index: { _index: 'logs-app' } }, { _line: 'alpha app' }, { index: { _index: 'secrets' } }, { _line: 'alpha secret' }]),
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/x-ndjson' },
  });
  assert.equal((bulk.body as { errors: boolean }).errors, false);
});

after(async () => {
  await node.destroy();
  await idp.close();
});

describe('the organisation, in order', () => {
  test('an administrator of the service opens the account with its first owner', async () => {
    assert.equal((await userAs('olivia', 'GET', '/v1/org')).status, 403, 'no member before the account exists');
    refused(await as(adminKey, 'POST', '/v1/org', { name: 'acme' }), 400, /\[owner\] is required/);
    const opened = await as(adminKey, 'POST', '/v1/org', { name: 'acme', owner: 'olivia' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.deepEqual((opened.body as { owner: User }).owner.role, 'owner');
    refused(await as(adminKey, 'POST', '/v1/org', { name: 'again', owner: 'mallory' }), 409, /exists already/);
    // a user without manage_security cannot open one
    refused(await userAs('olivia', 'POST', '/v1/org', { name: 'mine' }), 403, /database:manage_security/);
    assert.deepEqual((await userAs('olivia', 'GET', '/v1/org')).body, { name: 'acme', created_at: (opened.body as { account: { created_at: string } }).account.created_at, users: 1 });
  });

  test('the owner invites one user per default role; each holds exactly one role', async () => {
    for (const [subject, role] of [['adam', 'admin'], ['carl', 'contributor'], ['vera', 'viewer']]) {
      const res = await userAs('olivia', 'POST', '/v1/org/users', { subject, role });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((res.body as unknown as User).role, role);
    }
    refused(await userAs('olivia', 'POST', '/v1/org/users', { subject: 'vera', role: 'admin' }), 409, /user \[vera\] already exists/);
    refused(await userAs('olivia', 'POST', '/v1/org/users', { subject: 'x', role: ['viewer', 'admin'] }), 400, /\[role\]/);
    refused(await userAs('olivia', 'POST', '/v1/org/users', { subject: 'x', role: 'nope' }), 400, /role \[nope\] does not exist/);
    assert.deepEqual([...(await usersByName()).values()].map((u) => [u.subject, u.role]), [
      ['olivia', 'owner'],
      ['adam', 'admin'],
      ['carl', 'contributor'],
      ['vera', 'viewer'],
    ]);
  });

  test('every role views data in search, and only in search', async () => {
    for (const subject of ['olivia', 'adam', 'carl', 'vera']) {
      const res = await userAs(subject, 'GET', '/_search?q=alpha');
      assert.equal(res.status, 200, subject);
      assert.equal((res.body as { hits: { total: { value: number } } }).hits.total.value, 2, subject);
      const write = await request(`${node.url}/_bulk`, {
        body: ndjson([{ index: { _index: 'logs-app' } }, { _line: 'x' }]),
        headers: { authorization: `Bearer ${await user(subject)}`, 'content-type': 'application/x-ndjson' },
      });
      assert.equal(write.status, 403, subject);
      assert.equal((await userAs(subject, 'DELETE', '/secrets')).status, 403, subject);
      assert.equal((await userAs(subject, 'GET', '/v1/roles')).status, 403, subject);
    }
    // a signed-in stranger is no member: no search
    assert.equal((await userAs('stranger', 'GET', '/_search?q=alpha')).status, 403);
    assert.equal((await userAs('stranger', 'GET', '/v1/org/users')).status, 403);
  });

  test('only owners add users to or remove users from owner', async () => {
    const adam = await idOf('adam');
    const olivia = await idOf('olivia');
    refused(await userAs('adam', 'PUT', `/v1/org/users/${adam}`, { role: 'owner' }), 403, /only owners may add users to or remove users from \[owner\]/);
    refused(await userAs('adam', 'POST', '/v1/org/users', { subject: 'eve', role: 'owner' }), 403, /only owners/);
    refused(await userAs('adam', 'DELETE', `/v1/org/users/${olivia}`), 403, /only owners/);
    refused(await userAs('adam', 'PUT', `/v1/org/users/${olivia}`, { role: 'viewer' }), 403, /only owners/);
    // a custom role with every permission still makes no owner, and cannot touch owners
    assert.equal((await userAs('olivia', 'POST', '/v1/org/roles', { name: 'almighty', permissions: ['read:org', 'write:org', 'write:api_key', 'read:billing', 'write:billing'] })).status, 200);
    assert.equal((await userAs('olivia', 'POST', '/v1/org/users', { subject: 'alma', role: 'almighty' })).status, 200);
    refused(await userAs('alma', 'DELETE', `/v1/org/users/${olivia}`), 403, /only owners/);
    refused(await userAs('alma', 'DELETE', '/v1/org?confirm=acme'), 403, /only an owner may close the account/);
    assert.deepEqual([...(await usersByName()).values()].filter((u) => u.role === 'owner').map((u) => u.subject), ['olivia']);
  });

  test('several owners may exist; the last owner can neither leave nor step down', async () => {
    assert.equal((await userAs('olivia', 'POST', '/v1/org/users', { subject: 'otto', role: 'owner' })).status, 200);
    const olivia = await idOf('olivia');
    const otto = await idOf('otto');
    assert.equal((await userAs('otto', 'PUT', `/v1/org/users/${olivia}`, { role: 'viewer' })).status, 200);
    refused(await userAs('otto', 'DELETE', `/v1/org/users/${otto}`), 409, /last owner/);
    refused(await userAs('otto', 'PUT', `/v1/org/users/${otto}`, { role: 'admin' }), 409, /last owner/);
    assert.equal((await userAs('otto', 'PUT', `/v1/org/users/${olivia}`, { role: 'owner' })).status, 200);
    assert.equal((await userAs('olivia', 'DELETE', `/v1/org/users/${otto}`)).status, 200);
    assert.equal((await userAs('otto', 'GET', '/v1/org/users')).status, 403, 'a removed user loses the role at once');
  });

  test('admin cannot update billing, hand out billing permissions or close the account', async () => {
    const card = { holder: 'Acme Ltd', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 };
    refused(await userAs('adam', 'PUT', '/v1/org/billing/card', card), 403, /organisation permission \[write:billing\] is required; role \[admin\]/);
    assert.equal((await userAs('olivia', 'PUT', '/v1/org/billing/card', card)).status, 200);
    assert.equal((await userAs('adam', 'GET', '/v1/org/billing/card')).status, 200, 'admin may view billing');
    refused(await userAs('adam', 'DELETE', '/v1/org?confirm=acme'), 403, /only an owner/);

    assert.equal((await userAs('olivia', 'POST', '/v1/org/roles', { name: 'clerk', permissions: ['read:billing'] })).status, 200);
    const vera = await idOf('vera');
    refused(await userAs('adam', 'PUT', `/v1/org/users/${vera}`, { role: 'clerk' }), 403, /only a holder of \[write:billing\] may hand out billing permissions/);
    refused(await userAs('adam', 'POST', '/v1/org/users', { subject: 'bob', role: 'clerk' }), 403, /billing/);
    refused(await userAs('adam', 'POST', '/v1/org/users', { subject: 'bob', role: 'admin' }), 403, /billing/);
    refused(await userAs('adam', 'POST', '/v1/org/roles', { name: 'sneaky', permissions: ['read:org', 'read:billing'] }), 403, /billing/);
    refused(await userAs('adam', 'PUT', '/v1/org/roles/clerk', { name: 'clerk', permissions: [] }), 403, /billing/);
    // what admin may do: users and roles without billing
    assert.equal((await userAs('adam', 'POST', '/v1/org/users', { subject: 'bob', role: 'contributor' })).status, 200);
    assert.equal((await userAs('adam', 'PUT', `/v1/org/users/${await idOf('bob')}`, { role: 'viewer' })).status, 200);
  });

  test('contributor manages api keys for data, but not users, roles, billing or administrator keys', async () => {
    const keys = (await userAs('carl', 'GET', '/v1/org/api_keys')).body as unknown as Array<{ id: number; name: string }>;
    assert.deepEqual(keys.map((k) => k.name), ['shipper'], 'administrator keys are not listed');
    const rotated = await userAs('carl', 'POST', `/v1/org/api_keys/${keys[0]!.id}/rotate`);
    assert.equal(rotated.status, 200);
    assert.equal(rotated.headers.get('cache-control'), 'no-store');
    const fresh = (rotated.body as { api_key: string }).api_key;
    const shipped = (key: string) =>
      request(`${node.url}/_bulk`, { body: ndjson([{ index: { _index: 'logs-app' } }, { _line: 'shipped' }]), headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' } });
    assert.equal((await shipped(dataKey)).status, 401, 'the old value stops working');
    assert.equal((await shipped(fresh)).status, 200);
    dataKey = fresh;

    const adminKeyId = ((await as(adminKey, 'GET', '/v1/api_keys')).body as unknown as Array<{ id: number; name: string }>).find((k) => k.name === 'admin')!.id;
    refused(await userAs('carl', 'POST', `/v1/org/api_keys/${adminKeyId}/rotate`), 403, /manage_security.*rotate it through \/v1\/api_keys/);
    assert.equal((await as(adminKey, 'GET', '/_cluster/health')).status, 200, 'the administrator key still works');

    refused(await userAs('carl', 'POST', '/v1/org/users', { subject: 'y', role: 'viewer' }), 403, /\[write:org\] is required/);
    refused(await userAs('carl', 'POST', '/v1/org/roles', { name: 'r', permissions: [] }), 403, /\[write:org\] is required/);
    refused(await userAs('carl', 'GET', '/v1/org/billing/invoices'), 403, /\[read:billing\] is required/);
    assert.equal((await userAs('carl', 'GET', '/v1/org/users')).status, 200);
  });

  test('viewer uses the service only: no key rotation, no users, no billing', async () => {
    const keyId = ((await userAs('carl', 'GET', '/v1/org/api_keys')).body as unknown as Array<{ id: number }>)[0]!.id;
    refused(await userAs('vera', 'POST', `/v1/org/api_keys/${keyId}/rotate`), 403, /\[write:api_key\] is required; role \[viewer\]/);
    refused(await userAs('vera', 'GET', '/v1/org/api_keys'), 403, /write:api_key/);
    refused(await userAs('vera', 'DELETE', `/v1/org/users/${await idOf('carl')}`), 403, /write:org/);
    refused(await userAs('vera', 'GET', '/v1/org/billing/card'), 403, /read:billing/);
    assert.equal((await shippedWith(dataKey)).status, 200, 'the key the viewer tried to rotate still works');
  });

  test('a custom role cannot make anything stronger than itself, and searches only its indexes', async () => {
    const lead = { name: 'team-lead', permissions: ['read:org', 'write:org'], indexes: ['logs-*'] };
    assert.equal((await userAs('olivia', 'POST', '/v1/org/roles', lead)).status, 200);
    assert.equal((await userAs('olivia', 'POST', '/v1/org/users', { subject: 'tess', role: 'team-lead' })).status, 200);

    assert.equal((await userAs('tess', 'GET', '/logs-app/_search?q=alpha')).status, 200);
    refused(await userAs('tess', 'GET', '/secrets/_search?q=alpha'), 403, /index:read.*secrets/);
    assert.equal(((await userAs('tess', 'GET', '/_search?q=alpha')).body as { hits: { total: { value: number } } }).hits.total.value, 1);

    refused(await userAs('tess', 'POST', '/v1/org/roles', { name: 'keys', permissions: ['write:api_key'] , indexes: ['logs-*'] }), 403, /holds \[write:api_key\], which your role \[team-lead\] does not hold/);
    refused(await userAs('tess', 'POST', '/v1/org/roles', { name: 'wide', permissions: ['read:org'] }), 403, /may search \[\*\], beyond/);
    refused(await userAs('tess', 'PUT', '/v1/org/roles/team-lead', { ...lead, permissions: ['read:org', 'write:org', 'write:api_key'] }), 403, /write:api_key/);
    refused(await userAs('tess', 'PUT', '/v1/org/roles/team-lead', { ...lead, indexes: ['*'] }), 403, /beyond/);
    refused(await userAs('tess', 'POST', '/v1/org/users', { subject: 'z', role: 'contributor' }), 403, /write:api_key/);
    refused(await userAs('tess', 'POST', '/v1/org/users', { subject: 'z', role: 'viewer' }), 403, /beyond/);
    refused(await userAs('tess', 'PUT', `/v1/org/users/${await idOf('vera')}`, { role: 'team-lead' }), 403, /beyond/);

    const narrow = { name: 'app-reader', permissions: ['read:org'], indexes: ['logs-app'] };
    assert.equal((await userAs('tess', 'POST', '/v1/org/roles', narrow)).status, 200);
    assert.equal((await userAs('tess', 'POST', '/v1/org/users', { subject: 'zoe', role: 'app-reader' })).status, 200);
    assert.equal((await userAs('zoe', 'GET', '/logs-app/_search')).status, 200);
    assert.equal((await userAs('zoe', 'GET', '/logs-other/_search')).status, 403);
  });

  test('default roles are fixed; a custom role in use cannot go; renaming moves its holders', async () => {
    const roles = (await userAs('vera', 'GET', '/v1/org/roles')).body as unknown as Array<{ name: string; permissions: string[]; default: boolean }>;
    assert.deepEqual(roles.filter((r) => r.default).map((r) => [r.name, r.permissions]), [
      ['owner', ['read:org', 'write:org', 'write:api_key', 'read:billing', 'write:billing']],
      ['admin', ['read:org', 'write:org', 'write:api_key', 'read:billing']],
      ['contributor', ['read:org', 'write:api_key']],
      ['viewer', ['read:org']],
    ]);
    refused(await userAs('olivia', 'PUT', '/v1/org/roles/viewer', { name: 'viewer', permissions: ['read:org', 'write:org'] }), 400, /default role/);
    refused(await userAs('olivia', 'DELETE', '/v1/org/roles/admin'), 400, /default role/);
    refused(await userAs('olivia', 'POST', '/v1/org/roles', { name: 'owner', permissions: [] }), 400, /default role/);
    refused(await userAs('olivia', 'DELETE', '/v1/org/roles/app-reader'), 409, /held by 1 user/);
    assert.equal((await userAs('olivia', 'PUT', '/v1/org/roles/app-reader', { name: 'app-readers', permissions: ['read:org'], indexes: ['logs-app'] })).status, 200);
    assert.equal((await usersByName()).get('zoe')?.role, 'app-readers');
    assert.equal((await userAs('zoe', 'GET', '/logs-app/_search')).status, 200);
    assert.equal((await userAs('olivia', 'DELETE', '/v1/org/roles/clerk')).status, 200);
  });

  test('billing records: the card without its number, invoices', async () => {
    refused(
      await userAs('olivia', 'PUT', '/v1/org/billing/card', { holder: 'Acme', brand: 'visa', number: '4242424242424242', exp_month: 1, exp_year: 2031 }),
      400,
      /unknown field \[number\].*only the brand and the last four digits/,
    );
    const card = await userAs('olivia', 'GET', '/v1/org/billing/card');
    assert.deepEqual({ ...card.body, updated_at: undefined }, { holder: 'Acme Ltd', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, updated_at: undefined });
    const invoice = { number: 'INV-1', issued_on: '2024-05-01', amount_cents: 4900, currency: 'eur', status: 'paid' };
    refused(await userAs('adam', 'POST', '/v1/org/billing/invoices', invoice), 403, /write:billing/);
    const recorded = await userAs('olivia', 'POST', '/v1/org/billing/invoices', invoice);
    assert.equal(recorded.status, 200);
    assert.equal((recorded.body as { currency: string }).currency, 'EUR');
    refused(await userAs('olivia', 'POST', '/v1/org/billing/invoices', invoice), 409, /invoice \[INV-1\] already exists/);
    refused(await userAs('olivia', 'POST', '/v1/org/billing/invoices', { ...invoice, number: 'INV-2', issued_on: 'yesterday' }), 400, /issued_on/);
    const list = await userAs('adam', 'GET', '/v1/org/billing/invoices');
    assert.deepEqual((list.body as unknown as Array<{ number: string }>).map((i) => i.number), ['INV-1']);
  });

  test('api keys and signed-in strangers hold no organisation role', async () => {
    for (const path of ['/v1/org', '/v1/org/users', '/v1/org/billing/card']) {
      refused(await as(adminKey, 'GET', path), 403, /api key holds no organisation role/);
      refused(await as(dataKey, 'GET', path), 403, /api key holds no organisation role/);
      refused(await userAs('stranger', 'GET', path), 403, /not a member/);
      assert.equal((await request(`${node.url}${path}`)).status, 401);
    }
  });

  test('an owner closes the account, repeating its name; its members lose their roles', async () => {
    refused(await userAs('olivia', 'DELETE', '/v1/org'), 400, /repeat its name/);
    refused(await userAs('olivia', 'DELETE', '/v1/org?confirm=ACME'), 400, /repeat its name/);
    assert.equal((await userAs('olivia', 'DELETE', '/v1/org?confirm=acme')).status, 200);
    assert.equal((await userAs('vera', 'GET', '/_search?q=alpha')).status, 403);
    assert.equal((await userAs('olivia', 'GET', '/v1/org')).status, 403);
    assert.equal((await as(adminKey, 'POST', '/v1/org', { name: 'acme2', owner: 'olivia' })).status, 200, 'a new account may be opened');
    const roles = (await userAs('olivia', 'GET', '/v1/org/roles')).body as unknown as Array<{ name: string }>;
    assert.deepEqual(roles.map((r) => r.name), ['owner', 'admin', 'contributor', 'viewer'], 'custom roles went with the old account');
  });
});

function shippedWith(key: string) {
  return request(`${node.url}/_bulk`, { body: ndjson([{ index: { _index: 'logs-app' } }, { _line: 'shipped' }]), headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' } });
}

describe('with RBAC off', () => {
  let open: TestNode;
  before(async () => {
    open = await startTestNode({});
  });
  after(async () => {
    await open.destroy();
  });

  test('there is no organisation API: nobody could hold a role', async () => {
    const res = await request<ErrorBody>(`${open.url}/v1/org/users`);
    assert.equal(res.status, 400);
    assert.match(res.body.error.reason, /no handler found/);
  });
});
