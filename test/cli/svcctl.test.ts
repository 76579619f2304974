/** svcctl run as a child process against a real server. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { call, startAuthServer, type AuthServer } from '../auth/harness.js';

const BOOTSTRAP = 'bootstrap-for-cli-tests';
let dataDir = '';
let keyDir = '';
let server: AuthServer;

/** The CLI next to this test: TypeScript through tsx in development, compiled JS in dist. */
function cliCommand(): string[] {
  const here = fileURLToPath(import.meta.url);
  const script = path.resolve(path.dirname(here), '../../src/cli', here.endsWith('.ts') ? 'svcctl.ts' : 'svcctl.js');
  return here.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function svcctl(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), SVC_URL: server.url, ...env };
  return new Promise((resolve) => {
    execFile(process.execPath, [...cliCommand(), ...args], { env: childEnv, cwd: path.dirname(fileURLToPath(import.meta.url)) }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-keys-'));
  server = await startAuthServer({ dataDir, rbac: { enabled: true, bootstrapKey: BOOTSTRAP } });
});

after(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(keyDir, { recursive: true, force: true });
});

test('create-admin with the bootstrap key, then the rest with the admin key', async () => {
  const missing = await svcctl(['rbac', 'create-admin', '--dir', keyDir]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /SVC_API_KEY is not set/);

  const created = await svcctl(['rbac', 'create-admin', '--dir', keyDir], { SVC_API_KEY: BOOTSTRAP });
  assert.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim();
  assert.match(key, /^svc_[A-Za-z0-9_-]{55}$/);
  const files = fs.readdirSync(keyDir);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^svc-admin\.\d{8}T\d{6}Z\.json$/);
  const file = path.join(keyDir, files[0]!);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const record = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  assert.equal(record.api_key, key);
  assert.equal(record.role, 'admin');
  assert.equal(record.name, 'admin');
  assert.equal(record.url, server.url);
  assert.match(created.stderr, /saved in .*svc-admin\..*\.json/);
  assert.ok(!created.stderr.includes(key), 'the key goes to stdout only');

  const roles = (await call(`${server.url}/v1/roles`, { credential: key })).body;
  assert.deepEqual(roles, [
    { id: 1, name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] },
  ]);

  // the bootstrap key is spent
  const again = await svcctl(['rbac', 'create-admin', '--dir', keyDir], { SVC_API_KEY: BOOTSTRAP });
  assert.equal(again.code, 4);
  assert.match(again.stderr, /403: bootstrap key is no longer valid/);

  // with the admin key: the admin role is reused, a second key needs another name
  const dup = await svcctl(['rbac', 'create-admin', '--dir', keyDir], { SVC_API_KEY: key });
  assert.equal(dup.code, 5, dup.stderr);
  assert.match(dup.stderr, /api key \[admin\] already exists/);
  const second = await svcctl(['rbac', 'create-admin', '--dir', keyDir, '--prefix', 'backup-admin', '--name', 'admin-2'], { SVC_API_KEY: key });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /role \[admin\] already exists with the same permissions/);
  assert.ok(fs.readdirSync(keyDir).some((f) => f.startsWith('backup-admin.')));

  // role mappings
  const mapping = await svcctl(['rbac', 'create-role-mapping', 'idp-admins', 'admin'], { SVC_API_KEY: key });
  assert.equal(mapping.code, 0, mapping.stderr);
  const printed = JSON.parse(mapping.stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(printed), ['id', 'name', 'roles', 'created_at']);
  assert.equal(printed.name, 'idp-admins');
  assert.deepEqual(printed.roles, ['admin']);
  assert.match(String(printed.created_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const dupMapping = await svcctl(['rbac', 'create-role-mapping', 'idp-admins', 'admin'], { SVC_API_KEY: key });
  assert.equal(dupMapping.code, 5);
  const badRole = await svcctl(['rbac', 'create-role-mapping', 'idp-x', 'no-such-role'], { SVC_API_KEY: key });
  assert.equal(badRole.code, 1);
  assert.match(badRole.stderr, /400: role \[no-such-role\] does not exist/);

  // scoped keys
  const reader = await svcctl(['rbac', 'create-read', 'grafana', 'logs-*', 'metrics'], { SVC_API_KEY: key });
  assert.equal(reader.code, 0, reader.stderr);
  const readerKey = reader.stdout.trim();
  assert.equal((await call(`${server.url}/logs-1/_search`, { credential: readerKey })).status, 200);
  assert.equal((await call(`${server.url}/metrics/_search`, { credential: readerKey })).status, 200);
  assert.equal((await call(`${server.url}/secrets/_search`, { credential: readerKey })).status, 403);
  assert.equal((await call(`${server.url}/_bulk`, { credential: readerKey, body: '{"index":{"_index":"logs-1"}}\n{}\n' })).status, 403);

  const writer = await svcctl(['rbac', 'create-write', 'shipper', 'logs-*'], { SVC_API_KEY: key });
  assert.equal(writer.code, 0, writer.stderr);
  const writerKey = writer.stdout.trim();
  assert.equal((await call(`${server.url}/_bulk`, { credential: writerKey, body: '{"index":{"_index":"logs-1"}}\n{}\n' })).status, 200);
  assert.equal((await call(`${server.url}/logs-1/_search`, { credential: writerKey })).status, 403);

  const badPattern = await svcctl(['rbac', 'create-read', 'odd', 'a*b'], { SVC_API_KEY: key });
  assert.equal(badPattern.code, 1);
  assert.match(badPattern.stderr, /failed with 400: .*trailing prefix wildcard/);

  const wrongKey = await svcctl(['rbac', 'create-read', 'x', 'y'], { SVC_API_KEY: 'svc_wrong' });
  assert.equal(wrongKey.code, 4);
  assert.match(wrongKey.stderr, /401: .*check SVC_API_KEY/);

  const denied = await svcctl(['rbac', 'create-read', 'x', 'y'], { SVC_API_KEY: readerKey });
  assert.equal(denied.code, 4);
  assert.match(denied.stderr, /403: permission \[database:manage_security\] is required/);
});

test('an unreachable server, a bad SVC_URL, and usage errors', async () => {
  const closed = await new Promise<number>((resolve) => {
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 1;
      probe.close(() => resolve(port));
    });
  });
  const unreachable = await svcctl(['rbac', 'create-role-mapping', 'a', 'b'], { SVC_URL: `http://127.0.0.1:${closed}`, SVC_API_KEY: 'k' });
  assert.equal(unreachable.code, 3);
  assert.match(unreachable.stderr, /cannot reach svc at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);

  const badUrl = await svcctl(['rbac', 'create-role-mapping', 'a', 'b'], { SVC_URL: 'ftp://x', SVC_API_KEY: 'k' });
  assert.equal(badUrl.code, 2);
  assert.match(badUrl.stderr, /SVC_URL \[ftp:\/\/x\] must start with http/);

  const usage = await svcctl(['rbac', 'create-read', 'only-a-name']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /missing required argument/);
  assert.equal((await svcctl([])).code, 2);
  const help = await svcctl(['rbac', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /create-admin/);
});
