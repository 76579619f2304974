import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ENDPOINT_PERMISSIONS, findEndpointPermission, type Requirement } from '../../src/auth/index.js';
import { repoRoot } from './support.js';

/** The specification's permission-to-endpoint mapping, verbatim. */
const SPEC = {
  read: [
    'GET `/_alias`, `/_alias/{:aliases}`, `/_all/_alias`, `/_all/_aliases`, `/_cat/indices`, `/_cat/indices/{:index}`, `/_msearch`, `/_search/scroll`, `/{:index}/_alias`, `/{:index}/_aliases`, `/{:index}/_count`, `/{:index}/_flush`, `/{:index}/_mapping`, `/{:index}/_msearch`, `/{:index}/_search`, `/{:index}/_search/scroll`, `/{:index}/_settings`, `/{:index}/_stats`, `/{:index}/_stats/{:stats}`, `/{:index}/{:type}/_count`, `/{:index}/{:type}/_search`, `/_license`, `/_xpack`.',
    'HEAD `/_alias/{:aliases}`, `/_template/{:index}`, `/{:index}`.',
    'POST `/_msearch`, `/_search/scroll`, `/{:index}/_count`, `/{:index}/_msearch`, `/{:index}/_search`, `/{:index}/_search/scroll`, `/{:index}/{:type}/_count`, `/{:index}/{:type}/_search`.',
  ],
  write: ['POST `/_aliases`, `/_bulk`, `/{:index}/_bulk`, `/{:index}/_flush`; PUT `/_template/{:index}`, `/{:index}`, `/{:index}/_mapping`; GET `/_license`, `/_xpack`.'],
  delete: ['DELETE `/{:index}`.'],
  manage_security: [
    'GET, POST `/api_keys`; DELETE `/api_keys/{id}`; GET, POST, PUT `/role_mappings`; GET, POST `/roles`; GET, PUT, DELETE `/roles/{roleId}`.',
  ],
  monitor: ['GET `/_cat/nodes`, `/_cluster/health/*`, `/_cluster/settings`, `/_cluster/state/metadata/*`.'],
};
/** Since 1.23.0 these need no permission beyond a valid credential. */
const OPEN_SINCE_1_23 = ['GET /_cat/indices', 'GET /_license', 'GET /_xpack'];

function specRows(): Array<{ method: string; url: string; group: keyof typeof SPEC }> {
  const rows: Array<{ method: string; url: string; group: keyof typeof SPEC }> = [];
  for (const group of Object.keys(SPEC) as Array<keyof typeof SPEC>) {
    for (const sentence of SPEC[group]) {
      for (const clause of sentence.split(';')) {
        const m = /^\s*([A-Z, ]+?)\s+(`.*)$/.exec(clause);
        assert.ok(m, clause);
        const methods = m[1]!.split(',').map((s) => s.trim());
        const paths = [...m[2]!.matchAll(/`([^`]+)`/g)].map((p) => p[1]!);
        for (const method of methods) for (const p of paths) for (const url of toFastify(p, group)) rows.push({ method, url, group });
      }
    }
  }
  return rows;
}

function toFastify(specPath: string, group: keyof typeof SPEC): string[] {
  let url = specPath.replace(/\{:?([A-Za-z]+)\}/g, ':$1');
  if (group === 'manage_security') url = `/v1${url}`;
  if (url.endsWith('/*')) {
    const base = url.slice(0, -2);
    return [base, `${base}/:index`];
  }
  return [url];
}

function expectedRequirement(method: string, url: string, group: keyof typeof SPEC): Requirement {
  if (OPEN_SINCE_1_23.includes(`${method} ${url}`)) return { kind: 'authenticated' };
  if (group === 'manage_security' || group === 'monitor') return { kind: 'database', action: group };
  return { kind: 'index', action: group };
}

test('every endpoint of the specification has its permission', () => {
  const rows = specRows();
  assert.ok(rows.length >= 60, `parsed ${rows.length} rows`);
  for (const { method, url, group } of rows) {
    const row = findEndpointPermission(method, url);
    assert.ok(row, `${method} ${url} is missing`);
    assert.equal(row.origin, 'seed', `${method} ${url}`);
    const expected = expectedRequirement(method, url, group);
    const { bootstrap: _ignored, ...actual } = row.requirement as Requirement & { bootstrap?: boolean };
    assert.deepEqual(actual, expected, `${method} ${url}`);
  }
});

test('rows marked seed are exactly those of the specification', () => {
  const fromSpec = new Set(specRows().map((r) => `${r.method} ${r.url}`));
  for (const row of ENDPOINT_PERMISSIONS.filter((r) => r.origin === 'seed')) {
    assert.ok(fromSpec.has(`${row.method} ${row.url}`), `${row.method} ${row.url} is marked seed but is not in the specification`);
  }
});

test('the bootstrap key may only list and create roles and keys and read role mappings', () => {
  const bootstrapRows = ENDPOINT_PERMISSIONS.filter((r) => r.requirement.kind === 'database' && r.requirement.bootstrap === true)
    .map((r) => `${r.method} ${r.url}`)
    .sort();
  assert.deepEqual(bootstrapRows, [
    'GET /v1/api_keys',
    'GET /v1/role_mappings',
    'GET /v1/role_mappings/:id',
    'GET /v1/roles',
    'GET /v1/roles/:roleId',
    'POST /v1/api_keys',
    'POST /v1/roles',
  ]);
});

test('the choices where the specification is silent', () => {
  const req = (method: string, url: string) => findEndpointPermission(method, url)?.requirement;
  assert.deepEqual(req('GET', '/'), { kind: 'authenticated' });
  assert.deepEqual(req('GET', '/health/livez'), { kind: 'public' });
  assert.deepEqual(req('GET', '/health/readyz'), { kind: 'public' });
  assert.deepEqual(req('GET', '/metrics'), { kind: 'database', action: 'monitor' });
  for (const url of ['/_search', '/_count']) {
    for (const method of ['GET', 'POST']) assert.deepEqual(req(method, url), { kind: 'index', action: 'read' }, `${method} ${url}`);
  }
  assert.deepEqual(req('PUT', '/_bulk'), { kind: 'index', action: 'write' });
  assert.deepEqual(req('PUT', '/:index/_bulk'), { kind: 'index', action: 'write' });
  assert.deepEqual(req('DELETE', '/_search/scroll'), { kind: 'index', action: 'read' });
  assert.deepEqual(req('GET', '/_template/:index'), { kind: 'index', action: 'read' });
  assert.deepEqual(req('PUT', '/v1/role_mappings/:id'), { kind: 'database', action: 'manage_security' });
  assert.deepEqual(req('DELETE', '/v1/role_mappings/:id'), { kind: 'database', action: 'manage_security' });
});

test('HEAD falls back to the GET row; other methods do not fall back', () => {
  assert.deepEqual(findEndpointPermission('HEAD', '/'), findEndpointPermission('GET', '/'));
  assert.equal(findEndpointPermission('HEAD', '/:index')?.origin, 'seed');
  assert.equal(findEndpointPermission('PATCH', '/:index'), undefined);
  assert.equal(findEndpointPermission('POST', '/_cat/indices'), undefined);
  assert.equal(findEndpointPermission('GET', '/not/in/table'), undefined);
});

test('rows use fastify route syntax and are unique', () => {
  const seen = new Set<string>();
  for (const row of ENDPOINT_PERMISSIONS) {
    assert.ok(!/[{}]/.test(row.url) && row.url.startsWith('/'), row.url);
    assert.ok(!row.url.endsWith('/*'), row.url);
    const key = `${row.method} ${row.url}`;
    assert.ok(!seen.has(key), `duplicate ${key}`);
    seen.add(key);
  }
});

test('docs/rbac.md lists every row the specification does not give', () => {
  const docs = fs.readFileSync(path.join(repoRoot(), 'docs', 'rbac.md'), 'utf8');
  for (const row of ENDPOINT_PERMISSIONS.filter((r) => r.origin === 'added')) {
    assert.ok(docs.includes(`\`${row.method} ${row.url}\``), `docs/rbac.md does not mention \`${row.method} ${row.url}\``);
  }
});
