import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ForbiddenError, ObjectNotFoundError } from '../../src/common/errors.js';
import {
  backoffDelayMs,
  isTransientError,
  LocalObjectStore,
  ObjectStoreRequestError,
  RetryingObjectStore,
  type RetryPolicy,
} from '../../src/storage/index.js';
import { uploadFileParts } from '../../src/storage/file-parts.js';
import { FlakyObjectStore } from './flaky-object-store.js';

const root = mkdtempSync(join(tmpdir(), 'svc-retry-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

const FAST: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 };
const transient = (): ObjectStoreRequestError => new ObjectStoreRequestError('get', 'k', '503 ServerBusy', true, 503);
const connectionReset = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

function flakyLocal(): { flaky: FlakyObjectStore; store: RetryingObjectStore; retries: number[] } {
  const flaky = new FlakyObjectStore(new LocalObjectStore(join(root, `store-${++counter}`)));
  const retries: number[] = [];
  const store = new RetryingObjectStore(flaky, FAST, (event) => retries.push(event.attempt));
  return { flaky, store, retries };
}

describe('retrying object store', () => {
  it('succeeds after transient failures: 5xx and a reset connection', async () => {
    const { flaky, store, retries } = flakyLocal();
    await store.put('k', Buffer.from('value'));
    flaky.failNext('get', transient(), connectionReset());
    assert.equal((await store.get('k')).toString(), 'value');
    assert.equal(flaky.callsOf('get'), 3);
    assert.deepEqual(retries, [1, 2]);

    flaky.failNext('put', transient());
    await store.put('k2', Buffer.from('v2'));
    assert.equal(flaky.callsOf('put'), 3);
    assert.equal((await store.get('k2')).toString(), 'v2');
  });

  it('does not retry a missing object', async () => {
    const { flaky, store, retries } = flakyLocal();
    await assert.rejects(store.get('missing'), ObjectNotFoundError);
    assert.equal(flaky.callsOf('get'), 1);
    assert.deepEqual(retries, []);
  });

  it('does not retry refused credentials or bad requests', async () => {
    const { flaky, store } = flakyLocal();
    flaky.failNext('list', new ObjectStoreRequestError('list', '', '403 AuthenticationFailed', false, 403));
    await assert.rejects(store.list(''), (err: unknown) => err instanceof ObjectStoreRequestError && err.httpStatus === 403);
    assert.equal(flaky.callsOf('list'), 1);
    flaky.failNext('head', new ForbiddenError('no'));
    await assert.rejects(store.head('x'), ForbiddenError);
    assert.equal(flaky.callsOf('head'), 1);
  });

  it('gives up after the last attempt with the last error', async () => {
    const { flaky, store } = flakyLocal();
    const errors = [transient(), transient(), transient(), transient(), transient()];
    flaky.failNext('delete', ...errors);
    await assert.rejects(store.delete('k'), (err: unknown) => err === errors[3]);
    assert.equal(flaky.callsOf('delete'), FAST.maxAttempts);
  });

  it('keeps backoffs within the exponential ceiling and the maximum', () => {
    const policy: RetryPolicy = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000 };
    const highest = (): number => 0.999999;
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((retry) => backoffDelayMs(policy, retry, highest)),
      [99, 199, 399, 799, 999, 999],
    );
    assert.equal(backoffDelayMs(policy, 3, () => 0), 0);
  });

  it('classifies failures', () => {
    assert.equal(isTransientError(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 503 } })), true);
    assert.equal(isTransientError(Object.assign(new Error('x'), { statusCode: 429 })), true);
    assert.equal(isTransientError(Object.assign(new Error('x'), { name: 'TimeoutError' })), true);
    assert.equal(isTransientError(Object.assign(new Error('x'), { code: 'ETIMEDOUT' })), true);
    assert.equal(isTransientError(Object.assign(new Error('x'), { statusCode: 404 })), false);
    assert.equal(isTransientError(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 400 } })), false);
    assert.equal(isTransientError(Object.assign(new Error('x'), { code: 'EACCES' })), false);
    assert.equal(isTransientError(new ObjectNotFoundError('k')), false);
    assert.equal(isTransientError('a string'), false);
  });
});

describe('uploads in parts', () => {
  it('sends every part once in order of position, retrying only the part that failed', async () => {
    const file = join(root, `parts-${++counter}`);
    const content = Buffer.from('abcdefghijklmnopqrstuvwxyz');
    writeFileSync(file, content);
    const sent: Array<[number, string]> = [];
    let failuresLeft = 2;
    const results = await uploadFileParts({
      filePath: file,
      sizeBytes: content.length,
      partSizeBytes: 10,
      concurrency: 2,
      retry: FAST,
      key: 'k',
      sendPart: async (index, body) => {
        if (index === 1 && failuresLeft-- > 0) throw transient();
        sent.push([index, body.toString()]);
        return `etag-${index}`;
      },
    });
    assert.deepEqual(results, ['etag-0', 'etag-1', 'etag-2']);
    assert.deepEqual(
      sent.sort((a, b) => a[0] - b[0]),
      [
        [0, 'abcdefghij'],
        [1, 'klmnopqrst'],
        [2, 'uvwxyz'],
      ],
    );
  });

  it('stops at a part that fails for good', async () => {
    const file = join(root, `parts-${++counter}`);
    writeFileSync(file, Buffer.alloc(100));
    const denied = new ObjectStoreRequestError('put', 'k', '403', false, 403);
    let calls = 0;
    await assert.rejects(
      uploadFileParts({
        filePath: file,
        sizeBytes: 100,
        partSizeBytes: 10,
        concurrency: 1,
        retry: FAST,
        key: 'k',
        sendPart: async (index) => {
          calls++;
          if (index === 3) throw denied;
          return index;
        },
      }),
      (err: unknown) => err === denied,
    );
    assert.equal(calls, 4);
  });
});
