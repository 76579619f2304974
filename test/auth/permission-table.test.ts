/**
 * Every permission, measured: each endpoint of the permission table (data API, /v1 RBAC,
 * /v1/org) called on the real node by each kind of actor, against an expectation written here
 * from the documented rules rather than computed by the code under test. One test; its
 * diagnostics report the number of cells.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ENDPOINT_PERMISSIONS, type EndpointPermission } from '../../src/auth/index.js';
import { ndjson, request, startTestNode, type TestNode } from '../support/node.js';
import { startIdentityProvider, type IdentityProvider } from '../support/identity-provider.js';

const BOOTSTRAP = 'bootstrap-for-the-permission-table';
const AUDIENCE = 'svc-permission-table';
const INDEXES = ['logs-app', 'secrets'] as const;

type IndexAction = 'read' | 'write' | 'delete';
interface Actor {
  name: string;
  credential: string | undefined;
  /** 401: not authenticated; 403 everywhere: the retired bootstrap key */
  authenticated: boolean;
  retiredBootstrap?: boolean;
  /** index actions by pattern: `*` or a prefix ending in `*` */
  index: Array<[pattern: string, actions: IndexAction[]]>;
  database: string[];
  org: string[];
  owner: boolean;
}

const ALL_DEFAULT_SEARCH: Actor['index'] = [['*', ['read']]];
const actors: Actor[] = [];
let idp: IdentityProvider;
let node: TestNode;

function actor(name: string, credential: string | undefined, grants: Partial<Pick<Actor, 'index' | 'database' | 'org' | 'owner' | 'retiredBootstrap'>> = {}, authenticated = true): Actor {
  return { name, credential, authenticated, index: [], database: [], org: [], owner: false, ...grants };
}

async function call(method: string, path: string, credential?: string, body?: string, contentType = 'application/json') {
  const headers: Record<string, string> = {};
  if (credential !== undefined) headers.authorization = `Bearer ${credential}`;
  if (body !== undefined) headers['content-type'] = contentType;
  const res = await fetch(`${node.url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, text };
}

async function json<T>(method: string, path: string, credential: string, body?: object): Promise<T> {
  const res = await request<T>(`${node.url}${path}`, { method, body, headers: { authorization: `Bearer ${credential}` } });
  assert.ok(res.status === 200, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

before(async () => {
  idp = await startIdentityProvider();
  node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: BOOTSTRAP, SVC_JWT_AUDIENCE: AUDIENCE, SVC_JWT_ISSUER: idp.issuer });
  await json('POST', '/v1/roles', BOOTSTRAP, { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] });
  const admin = (await json<{ api_key: string }>('POST', '/v1/api_keys', BOOTSTRAP, { name: 'admin', role: 'admin' })).api_key;
  await json('POST', '/v1/roles', admin, { name: 'logs-rw', database: [], indexes: [{ names: ['logs-*'], permissions: ['read', 'write'] }] });
  const scopedKey = (await json<{ api_key: string }>('POST', '/v1/api_keys', admin, { name: 'logs-rw', role: 'logs-rw' })).api_key;
  await json('POST', '/v1/roles', admin, { name: 'nothing', database: [], indexes: [] });
  const emptyKey = (await json<{ api_key: string }>('POST', '/v1/api_keys', admin, { name: 'nothing', role: 'nothing' })).api_key;

  await json('POST', '/v1/org', admin, { name: 'acme', owner: 'olivia' });
  const olivia = await idp.token(AUDIENCE, { subject: 'olivia', expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  for (const [subject, role] of [['adam', 'admin'], ['carl', 'contributor'], ['vera', 'viewer']]) await json('POST', '/v1/org/users', olivia, { subject, role });
  await json('POST', '/v1/org/roles', olivia, { name: 'logs-team', permissions: ['read:org'], indexes: ['logs-*'] });
  await json('POST', '/v1/org/users', olivia, { subject: 'lena', role: 'logs-team' });
  const bulk = ndjson([{ index: { _index: 'logs-app' } }, { _line: 'alpha' }, { index: { _index: 'secrets' } }, { _line: 'alpha' }]);
  assert.equal((await call('POST', '/_bulk', admin, bulk, 'application/x-ndjson')).status, 200);

  const token = (subject: string) => idp.token(AUDIENCE, { subject, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  const ALL_ORG = ['read:org', 'write:org', 'write:api_key', 'read:billing', 'write:billing'];
  actors.push(
    actor('no credential', undefined, {}, false),
    actor('bad credential', 'not-a-credential-of-this-service', {}, false),
    actor('expired JWT (an owner)', await idp.token(AUDIENCE, { subject: 'olivia', expiresAt: Math.floor(Date.now() / 1000) - 600 }), {}, false),
    actor('owner', olivia, { index: ALL_DEFAULT_SEARCH, org: ALL_ORG, owner: true }),
    actor('admin', await token('adam'), { index: ALL_DEFAULT_SEARCH, org: ['read:org', 'write:org', 'write:api_key', 'read:billing'] }),
    actor('contributor', await token('carl'), { index: ALL_DEFAULT_SEARCH, org: ['read:org', 'write:api_key'] }),
    actor('viewer', await token('vera'), { index: ALL_DEFAULT_SEARCH, org: ['read:org'] }),
    actor('custom organisation role on logs-*', await token('lena'), { index: [['logs-*', ['read']]], org: ['read:org'] }),
    actor('signed-in user of no role', await token('stranger')),
    actor('api key, custom role on logs-*', scopedKey, { index: [['logs-*', ['read', 'write']]] }),
    actor('api key with an empty role', emptyKey),
    actor('api key of the first administrator', admin, { index: [['*', ['read', 'write', 'delete']]], database: ['manage_security', 'monitor'] }),
    actor('retired bootstrap key', BOOTSTRAP, { retiredBootstrap: true }),
  );
});

after(async () => {
  await node.destroy();
  await idp.close();
});

const holds = (a: Actor, action: IndexAction, index?: string) =>
  a.index.some(([pattern, actions]) => actions.includes(action) && (index === undefined || pattern === '*' || index.startsWith(pattern.slice(0, -1))));

/** The documented rules, per actor and row: 'in' means past access control. */
function expected(a: Actor, row: EndpointPermission, index: string | undefined): 401 | 403 | 'in' {
  const r = row.requirement;
  if (r.kind === 'public') return 'in';
  // internal routes take the cluster secret, which this node (RBAC on, no secret set) has none of
  if (r.kind === 'cluster_secret') return 403;
  if (!a.authenticated) return 401;
  if (a.retiredBootstrap === true) return 403;
  switch (r.kind) {
    case 'authenticated':
      return 'in';
    case 'index':
      return holds(a, r.action, index) ? 'in' : 403;
    case 'database':
      return a.database.includes(r.action) ? 'in' : 403;
    case 'org':
      return a.org.includes(r.permission) ? 'in' : 403;
    case 'org_owner':
      return a.owner ? 'in' : 403;
  }
}

function concrete(row: EndpointPermission, index: string | undefined): string {
  return row.url
    .replace(':index', index ?? '')
    .replace(':type', '_doc')
    .replace(':aliases', `${index ?? 'logs-app'}-alias`)
    .replace(':stats', 'docs')
    .replace(':metric', 'nodes')
    .replace(':scrollId', 'c2Nyb2xs')
    .replace(':roleId', '999999')
    .replace(':userId', '999999')
    .replace(':name', row.url.startsWith('/v1/org') ? 'no-such-role' : `${index ?? 'logs-app'}*`)
    .replace(':id', '999999');
}

function body(row: EndpointPermission, index: string | undefined): { body?: string; type?: string } {
  if (row.method !== 'POST' && row.method !== 'PUT') return {};
  if (row.url.endsWith('/_bulk')) return { body: ndjson([{ index: { _index: index ?? 'logs-app' } }, { _line: 'x' }]), type: 'application/x-ndjson' };
  if (row.url.endsWith('/_msearch')) return { body: ndjson([{}, { query: { match_all: {} } }]), type: 'application/x-ndjson' };
  return { body: '{}' };
}

/** `:index` names an index, except in template routes, where it names a template. */
const namesIndex = (row: EndpointPermission) => row.url.includes(':index') && !row.url.includes('_template');

/**
 * How a refused cell was refused: 401 or 403 for the whole request; or, where the API reports
 * per item (bulk, msearch), 200 with every item refused with 403; or 400 when the request was
 * invalid before any index was touched (a scroll without its id, an msearch without a body).
 */
function refusal(status: number, text: string): 401 | 403 | 'per-item 403' | 'invalid' | undefined {
  if (status === 401 || status === 403) return status;
  if (status === 200) {
    const body = JSON.parse(text) as { items?: Array<{ index: { status: number } }>; responses?: Array<{ status?: number; error?: unknown }> };
    const statuses = body.items?.map((i) => i.index.status) ?? body.responses?.map((r) => r.status ?? 200) ?? [];
    if (statuses.length > 0 && statuses.every((s) => s === 403)) return 'per-item 403';
  }
  if (status === 400 && text.includes('action_request_validation_exception')) return 'invalid';
  return undefined;
}

test('every endpoint × every kind of actor: nobody gets in where they do not belong', async (t) => {
  // rows the node does not serve (field_caps) answer "no handler found" to anyone signed in
  const served = ENDPOINT_PERMISSIONS.filter((row) => node.app.hasRoute({ method: row.method, url: row.url }));
  // deletions last, so that what they remove does not change the other rows' answers
  const rows = [...served].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
  const counts = { cells: 0, in: 0, 401: 0, 403: 0, 'per-item 403': 0, invalid: 0 };
  const wrong: string[] = [];
  for (const row of rows) {
    const variants = row.url.includes(':index') ? [...INDEXES] : [undefined];
    for (const index of variants) {
      const path = concrete(row, index);
      const { body: payload, type } = body(row, index);
      await Promise.all(
        actors.map(async (a) => {
          const want = expected(a, row, namesIndex(row) ? index : undefined);
          const got = await call(row.method, path, a.credential, payload, type);
          counts.cells++;
          if (want === 'in') {
            counts.in++;
            if (got.status === 401 || got.status === 403 || got.status >= 500) wrong.push(`${row.method} ${path} as ${a.name}: expected in, got ${got.status} ${got.text.slice(0, 200)}`);
            return;
          }
          const how = refusal(got.status, got.text);
          // nobody authenticated gets past a 401 cell, and a 403 cell is refused one way or another
          if (how === undefined || (want === 401 && how !== 401)) {
            wrong.push(`${row.method} ${path} as ${a.name}: expected ${want}, got ${got.status} ${got.text.slice(0, 200)}`);
            return;
          }
          counts[how]++;
        }),
      );
    }
  }
  t.diagnostic(
    `${counts.cells} cells: ${counts.in} let in; refused: ${counts[401]} with 401, ${counts[403]} with 403, ` +
      `${counts['per-item 403']} with every bulk or msearch item 403, ${counts.invalid} as invalid before any index was touched`,
  );
  t.diagnostic(`${rows.length} endpoints served × ${actors.length} actors; endpoints with an index tried on ${INDEXES.join(' and ')}; ${ENDPOINT_PERMISSIONS.length - served.length} table rows not served by the node`);
  assert.deepEqual(wrong, []);
  assert.equal(counts.cells, actors.length * rows.reduce((n, r) => n + (r.url.includes(':index') ? INDEXES.length : 1), 0));
});
