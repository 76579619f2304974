import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { mainScript } from '../support/node.js';

describe('configuration', () => {
  it('has the embedded defaults', () => {
    const c = loadConfig({});
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.port, 9200);
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(c.maxBulkBytes, 100 * 1024 * 1024);
    assert.equal(c.queryThreads, os.availableParallelism());
    assert.equal(c.queryQueueSize, 1000);
    assert.equal(c.idleIndexMs, 600_000);
    assert.equal(c.rbac.enabled, false);
    assert.equal(c.objectStore, '');
  });

  it('reads SVC_* settings, and command-line overrides win', () => {
    const c = loadConfig(
      { SVC_HOST: '0.0.0.0', SVC_PORT: '9300', SVC_QUERY_THREADS: '3', SVC_QUERY_TIMEOUT_SECONDS: '2.5', SVC_QUERY_QUEUE_SIZE: '0', SVC_RBAC: '0', OTHER: 'ignored' },
      { port: 9400 },
    );
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.port, 9400);
    assert.equal(c.queryThreads, 3);
    assert.equal(c.queryTimeoutMs, 2500);
    assert.equal(c.queryQueueSize, 0);
  });

  it('refuses invalid values, naming the setting', () => {
    for (const [key, value] of [
      ['SVC_PORT', '70000'],
      ['SVC_PORT', 'http'],
      ['SVC_QUERY_THREADS', '0'],
      ['SVC_QUERY_TIMEOUT_SECONDS', '-1'],
      ['SVC_QUERY_QUEUE_SIZE', '-1'],
      ['SVC_RBAC', 'maybe'],
      ['SVC_LOG_LEVEL', 'loud'],
      ['SVC_MAX_BULK_BYTES', '1.5'],
      ['SVC_JWT_JWKS_URL', 'not a url'],
    ]) {
      assert.throws(() => loadConfig({ [key!]: value! }), (err: unknown) => err instanceof ConfigError && err.message.includes(key!), `${key}=${value}`);
    }
  });

  it('fails fast on an inconsistent RBAC configuration', () => {
    const rbac = { SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: 'boot' };
    assert.throws(() => loadConfig({ ...rbac, SVC_JWT_HS256_SECRET: 's' }), /SVC_JWT_ALLOW_HS256/);
    assert.throws(() => loadConfig({ ...rbac, SVC_JWT_JWKS_FILE: '/x.json' }), /SVC_JWT_AUDIENCE is required/);
    assert.throws(
      () => loadConfig({ ...rbac, SVC_JWT_AUDIENCE: 'svc', SVC_JWT_JWKS_FILE: '/x.json', SVC_JWT_PUBLIC_KEY_FILE: '/k.pem' }),
      /only one of/,
    );
    const ok = loadConfig({ ...rbac, SVC_JWT_AUDIENCE: 'svc', SVC_JWT_JWKS_URL: 'http://127.0.0.1:1/jwks.json', SVC_JWT_ISSUER: 'idp' });
    assert.deepEqual(ok.rbac.jwt, {
      audience: 'svc',
      issuers: ['idp'],
      keySource: { kind: 'jwks_url', url: 'http://127.0.0.1:1/jwks.json' },
      rolesClaim: 'roles',
    });
  });

  it("starts RBAC with the specification's three settings, and finds a JWT key source where it can be known", () => {
    const spec = { SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: 'boot', SVC_JWT_AUDIENCE: 'svc' };
    const bare = loadConfig(spec).rbac;
    assert.equal(bare.enabled, true);
    assert.equal(bare.bootstrapKey, 'boot');
    assert.equal(bare.jwt?.keySource.kind, 'none');
    assert.match(bare.jwt?.keySource.kind === 'none' ? bare.jwt.keySource.hint : '', /set SVC_JWT_ISSUER .* or set SVC_JWT_JWKS_URL/);

    // a pinned issuer: its published keys, found by discovery, and tokens must name it
    const pinned = loadConfig({ ...spec, SVC_JWT_ISSUER: 'https://idp.example.com/realms/ops' }).rbac.jwt;
    assert.deepEqual(pinned && [pinned.keySource, pinned.issuers], [
      { kind: 'oidc_discovery', issuer: 'https://idp.example.com/realms/ops', pinnedBy: 'SVC_JWT_ISSUER' },
      ['https://idp.example.com/realms/ops'],
    ]);
    assert.equal(loadConfig({ ...spec, SVC_JWT_ISSUER: 'http://127.0.0.1:8080' }).rbac.jwt?.keySource.kind, 'oidc_discovery');
    // an issuer that cannot be trusted over the network, or is no URL, leads nowhere
    assert.throws(() => loadConfig({ ...spec, SVC_JWT_ISSUER: 'http://idp.example.com' }), /SVC_JWT_ISSUER \[http:\/\/idp.example.com\] is not an https URL.*SVC_JWT_JWKS_URL/);
    assert.throws(() => loadConfig({ ...spec, SVC_JWT_ISSUER: 'idp' }), /is not a URL/);

    // an audience only one provider hands out pins its issuer without a further setting
    const google = loadConfig({ ...spec, SVC_JWT_AUDIENCE: '123456789012-abcdefghij0123456789.apps.googleusercontent.com' }).rbac.jwt;
    assert.deepEqual(google && [google.keySource, google.issuers], [
      { kind: 'oidc_discovery', issuer: 'https://accounts.google.com', pinnedBy: 'SVC_JWT_AUDIENCE' },
      ['https://accounts.google.com', 'accounts.google.com'],
    ]);
    // a look-alike is not taken for it
    assert.equal(loadConfig({ ...spec, SVC_JWT_AUDIENCE: 'evil.apps.googleusercontent.com.example' }).rbac.jwt?.keySource.kind, 'none');
  });

  it('svc serve exits with code 2 and a message on an invalid setting', () => {
    const run = spawnSync(process.execPath, [mainScript(), 'serve'], { env: { ...process.env, SVC_PORT: 'abc' }, encoding: 'utf8', timeout: 20_000 });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /invalid configuration: SVC_PORT/);
    const flag = spawnSync(process.execPath, [mainScript(), 'serve', '--port', '99999'], { encoding: 'utf8', timeout: 20_000 });
    assert.notEqual(flag.status, 0);
    assert.match(flag.stderr, /port/);
  });
});

describe('cluster settings', () => {
  it('runs every role by default, with a node id derived from the cluster and node names', () => {
    const c = loadConfig({ SVC_NODE_NAME: 'n1' });
    assert.deepEqual(c.cluster.roles, ['api', 'cache', 'storage', 'coordinator']);
    assert.equal(c.cluster.allRoles, true);
    assert.equal(c.cluster.nodeId, loadConfig({ SVC_NODE_NAME: 'n1' }).cluster.nodeId);
    assert.notEqual(c.cluster.nodeId, loadConfig({ SVC_NODE_NAME: 'n2' }).cluster.nodeId);
    assert.match(c.cluster.nodeId, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(c.cluster.secret, undefined);
    assert.equal(c.cluster.heartbeatIntervalMs, 3000);
    assert.equal(c.cluster.leaseMs, 15_000);
  });

  it('takes roles from SVC_ROLES or --roles (which wins), in a fixed order', () => {
    const pg = 'postgres://svc@127.0.0.1/svc';
    const c = loadConfig({ SVC_ROLES: 'cache', SVC_METASTORE_URL: pg }, { roles: ' coordinator, api ,' });
    assert.deepEqual(c.cluster.roles, ['api', 'coordinator']);
    assert.equal(c.cluster.allRoles, false);
    assert.deepEqual(loadConfig({ SVC_ROLES: 'storage,cache', SVC_METASTORE_URL: pg }).cluster.roles, ['cache', 'storage']);
    const full = loadConfig({
      SVC_ROLES: 'cache',
      SVC_METASTORE_URL: pg,
      SVC_NODE_ID: 'cache-1',
      SVC_ADVERTISE_URL: 'http://10.0.0.5:9201/',
      SVC_CLUSTER_SECRET: 's'.repeat(16),
      SVC_HEARTBEAT_INTERVAL_SECONDS: '0.5',
      SVC_LEASE_SECONDS: '2',
    });
    assert.equal(full.cluster.nodeId, 'cache-1');
    assert.equal(full.cluster.advertiseUrl, 'http://10.0.0.5:9201');
    assert.equal(full.cluster.secret, 's'.repeat(16));
    assert.equal(full.cluster.heartbeatIntervalMs, 500);
    assert.equal(full.cluster.leaseMs, 2000);
  });

  it('refuses what cannot work, naming the setting', () => {
    const pg = { SVC_METASTORE_URL: 'postgres://svc@127.0.0.1/svc' };
    const cases: Array<[Record<string, string>, { roles?: string }, RegExp]> = [
      [{ ...pg, SVC_ROLES: 'api,search' }, {}, /unknown role \[search\]/],
      [{ ...pg }, { roles: ' , ' }, /at least one of api, cache, storage, coordinator/],
      [{ SVC_ROLES: 'api' }, {}, /SVC_METASTORE_URL/],
      [{ SVC_CLUSTER_SECRET: 'short' }, {}, /SVC_CLUSTER_SECRET must be at least 16/],
      [{ SVC_HEARTBEAT_INTERVAL_SECONDS: '5', SVC_LEASE_SECONDS: '9' }, {}, /SVC_LEASE_SECONDS must be at least twice/],
      [{ SVC_NODE_ID: 'has space' }, {}, /SVC_NODE_ID/],
      [{ SVC_ADVERTISE_URL: 'not a url' }, {}, /SVC_ADVERTISE_URL/],
      [{ SVC_ADVERTISE_URL: 'ftp://host:21' }, {}, /http or https/],
    ];
    for (const [env, overrides, message] of cases) {
      assert.throws(() => loadConfig(env, overrides), (err: unknown) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env));
    }
  });
});
