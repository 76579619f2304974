/**
 * The console's static files over HTTP: public under access control, from the built bundle,
 * with a content security policy, revalidated by ETag, and nothing outside the bundle reachable.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServer } from '../../src/http/server.js';
import { registerConsoleRoutes } from '../../src/http/console/index.js';
import { createLogger } from '../../src/observability/index.js';
import { startTestNode, tempDir, type TestNode } from '../support/node.js';

describe('the console route on a node with access control on', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: 'bootstrap-for-the-console-route' });
  });
  after(() => node.destroy());

  it('serves the page and its bundle without a credential, with a content security policy', async () => {
    const page = await fetch(`${node.url}/_console/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.match(await page.text(), /<script type="module" src="console.js">/);
    assert.match(page.headers.get('content-security-policy')!, /script-src 'self'/);
    assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const script = await fetch(`${node.url}/_console/console.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type')!, /^text\/javascript/);
    const style = await fetch(`${node.url}/_console/console.css`);
    assert.equal(style.status, 200);
    assert.match(style.headers.get('content-type')!, /^text\/css/);
  });

  it('redirects /_console to /_console/, so that the page finds its files', async () => {
    const res = await fetch(`${node.url}/_console`, { redirect: 'manual' });
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), '/_console/');
  });

  it('answers 304 to a request carrying the current ETag', async () => {
    const first = await fetch(`${node.url}/_console/console.js`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[\w-]+"$/);
    const again = await fetch(`${node.url}/_console/console.js`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  it('answers 404 for a name outside the bundle, however it is spelled', async () => {
    for (const name of ['nope.js', '..%2Fpackage.json', '%2E%2E%2F%2E%2E%2Fpackage.json', 'index.html%00.js']) {
      const res = await fetch(`${node.url}/_console/${name}`);
      assert.equal(res.status, 404, name);
    }
    // the API behind the console stays closed to a request without a credential
    assert.equal((await fetch(`${node.url}/_cat/indices`)).status, 401);
  });
});

describe('the console route without a built bundle', () => {
  it('says how to build it, and serves only the known kinds of file of a bundle', async () => {
    const dir = tempDir('svc-console-');
    const app = createServer({ logger: createLogger('silent'), maxBodyBytes: 1024 });
    registerConsoleRoutes(app, path.join(dir, 'missing'));
    const res = await app.inject({ method: 'GET', url: '/_console/' });
    assert.equal(res.statusCode, 404);
    assert.match(res.json<{ error: { reason: string } }>().error.reason, /npm run build/);

    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    fs.writeFileSync(path.join(dir, 'secret.env'), 'KEY=1');
    const other = createServer({ logger: createLogger('silent'), maxBodyBytes: 1024 });
    registerConsoleRoutes(other, dir);
    assert.equal((await other.inject({ method: 'GET', url: '/_console/' })).statusCode, 200);
    assert.equal((await other.inject({ method: 'GET', url: '/_console/secret.env' })).statusCode, 404);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
