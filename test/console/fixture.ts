/**
 * The service the console tests drive: a real node with access control on, an administrator key,
 * a key that may only read `logs-*` and a data key of the same role, an organisation with a card
 * and an invoice whose owner and viewer sign in with an identity provider's tokens, and log lines
 * at known times so that counts can be checked.
 */
import assert from 'node:assert/strict';
import { ndjson, request, startTestNode, type TestNode } from '../support/node.js';
import { startIdentityProvider, type IdentityProvider } from '../support/identity-provider.js';

export const BOOTSTRAP = 'bootstrap-for-the-console-tests';
const AUDIENCE = 'svc-console-tests';
const MINUTE = 60_000;

export interface LogLine {
  _ts: number;
  _line: string;
  level: string;
  service: string;
}

export interface Fixture {
  node: TestNode;
  idp: IdentityProvider;
  admin: string;
  reader: string;
  /** a token of `olivia`, owner of the organisation `acme`, which has a second member `vera` */
  owner: string;
  /** a token of `vera`, a viewer of `acme` */
  viewer: string;
  /** a data key (role logs-reader) a member may rotate */
  fluentBit: string;
  /** the lines of `logs-app`, newest first */
  lines: LogLine[];
}

async function call<T>(node: TestNode, method: string, path: string, credential: string, body?: object | string): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${credential}` };
  if (typeof body === 'string') headers['content-type'] = 'application/x-ndjson';
  const res = await request<T>(`${node.url}${path}`, { method, body, headers });
  assert.ok(res.status === 200, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * 120 lines one minute apart, ending a minute ago: every third mentions a timeout (40 lines, so
 * a search for it fills a page of 50 only with the older page), levels and services cycle.
 */
function logLines(now: number): LogLine[] {
  const levels = ['info', 'warn', 'error'];
  const services = ['api', 'billing', 'worker', 'auth'];
  const lines: LogLine[] = [];
  for (let i = 0; i < 120; i++) {
    const timeout = i % 3 === 0;
    lines.push({
      _ts: now - (i + 1) * MINUTE,
      _line: timeout ? `request ${i} failed: upstream timeout after 30s` : `request ${i} served in ${i % 17} ms`,
      level: timeout ? levels[i % 2 === 0 ? 2 : 1]! : levels[0]!,
      service: services[i % 4]!,
    });
  }
  return lines;
}

export async function startFixture(): Promise<Fixture> {
  const idp = await startIdentityProvider();
  const node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP, SVC_JWT_AUDIENCE: AUDIENCE, SVC_JWT_ISSUER: idp.issuer });
  await call(node, 'POST', '/v1/roles', BOOTSTRAP, { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] });
  const admin = (await call<{ api_key: string }>(node, 'POST', '/v1/api_keys', BOOTSTRAP, { name: 'admin', role: 'admin' })).api_key;
  await call(node, 'POST', '/v1/roles', admin, { name: 'logs-reader', database: [], indexes: [{ names: ['logs-*'], permissions: ['read'] }] });
  const reader = (await call<{ api_key: string }>(node, 'POST', '/v1/api_keys', admin, { name: 'reader', role: 'logs-reader' })).api_key;
  await call(node, 'POST', '/v1/org', admin, { name: 'acme', owner: 'olivia' });
  const owner = await idp.token(AUDIENCE, { subject: 'olivia', expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  await call(node, 'POST', '/v1/org/users', owner, { subject: 'vera', role: 'viewer' });
  const viewer = await idp.token(AUDIENCE, { subject: 'vera', expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  const fluentBit = (await call<{ api_key: string }>(node, 'POST', '/v1/api_keys', admin, { name: 'fluent-bit', role: 'logs-reader' })).api_key;
  await call(node, 'PUT', '/v1/org/billing/card', owner, { holder: 'Olivia Owner', brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031 });
  await call(node, 'POST', '/v1/org/billing/invoices', owner, { number: 'INV-2024-001', issued_on: '2024-03-01', amount_cents: 12900, currency: 'eur', status: 'paid' });

  const lines = logLines(Date.now());
  const bulk: unknown[] = [];
  for (const line of lines) bulk.push({ index: { _index: 'logs-app' } }, line);
  bulk.push({ index: { _index: 'secrets' } }, { _line: 'the vault password is swordfish', level: 'info' });
  bulk.push({ index: { _index: 'scratch' } }, { _line: 'to be deleted', level: 'info' });
  const res = await call<{ errors: boolean }>(node, 'POST', '/_bulk', admin, ndjson(bulk));
  assert.equal(res.errors, false);
  return { node, idp, admin, reader, owner, viewer, fluentBit, lines };
}

export async function stopFixture(fixture: Fixture): Promise<void> {
  await fixture.node.destroy();
  await fixture.idp.close();
}

/** Indexes one more line now, as a shipper would while the console tails. */
export async function shipLine(fixture: Fixture, line: string, index = 'logs-app'): Promise<void> {
  await call(fixture.node, 'POST', '/_bulk', fixture.admin, ndjson([{ index: { _index: index } }, { _line: line, level: 'info', service: 'api' }]));
}
