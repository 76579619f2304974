/**
 * The behaviour every object store must show, run against each backend (local directory, Azure
 * through Azurite, S3 through s3rver). `open` returns a fresh, empty store for each test.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BadRequestError, ObjectNotFoundError } from '../../src/common/errors.js';
import { ObjectRangeError, type ObjectStore } from '../../src/storage/index.js';

const MiB = 1024 * 1024;

export function describeObjectStore(name: string, open: () => Promise<ObjectStore>): void {
  describe(`${name} object store`, () => {
    const scratch = mkdtempSync(join(tmpdir(), 'svc-store-test-'));
    after(() => rmSync(scratch, { recursive: true, force: true }));

    it('stores and returns bytes, and a second put replaces the object', async () => {
      const store = await open();
      const body = randomBytes(1000);
      await store.put('segments/a.seg', body);
      assert.deepEqual(await store.get('segments/a.seg'), body);
      await store.put('segments/a.seg', Buffer.from('replaced'));
      assert.equal((await store.get('segments/a.seg')).toString(), 'replaced');
      await store.put('empty', Buffer.alloc(0));
      assert.equal((await store.get('empty')).length, 0);
    });

    it('reads ranges: from the start, the middle, the last byte, and refuses ranges past the end', async () => {
      const store = await open();
      const body = Buffer.from('0123456789abcdef');
      await store.put('r', body);
      assert.equal((await store.getRange('r', 0, 4)).toString(), '0123');
      assert.equal((await store.getRange('r', 5, 3)).toString(), '567');
      assert.equal((await store.getRange('r', 15, 1)).toString(), 'f');
      assert.equal((await store.getRange('r', 0, 16)).toString(), '0123456789abcdef');
      assert.equal((await store.getRange('r', 16, 0)).length, 0);
      for (const [offset, length] of [
        [16, 1],
        [100, 4],
        [10, 7],
      ] as const) {
        await assert.rejects(store.getRange('r', offset, length), (err: unknown) => {
          assert.ok(err instanceof ObjectRangeError, `range ${offset}+${length}: ${String(err)}`);
          assert.equal(err.sizeBytes, 16);
          assert.match(err.message, /outside object \[r\] of 16 bytes/);
          return true;
        });
      }
      await assert.rejects(store.getRange('r', -1, 2), BadRequestError);
      await assert.rejects(store.getRange('r', 0.5, 2), BadRequestError);
    });

    it('answers a missing object with ObjectNotFoundError, status 404, on get, ranged get and download', async () => {
      const store = await open();
      const isNotFound = (err: unknown): boolean => {
        assert.ok(err instanceof ObjectNotFoundError, String(err));
        assert.equal(err.status, 404);
        assert.equal(err.type, 'resource_not_found_exception');
        assert.equal(err.key, 'no/such/key');
        return true;
      };
      await assert.rejects(store.get('no/such/key'), isNotFound);
      await assert.rejects(store.getRange('no/such/key', 0, 1), isNotFound);
      await assert.rejects(store.getRange('no/such/key', 0, 0), isNotFound);
      const target = join(scratch, `missing-${randomBytes(4).toString('hex')}`, 'file');
      await assert.rejects(store.getToFile('no/such/key', target), isNotFound);
      assert.equal(existsSync(target), false);
      assert.equal(await store.head('no/such/key'), null);
    });

    it('heads an object: its size and modification time', async () => {
      const store = await open();
      const before = Date.now();
      await store.put('h/one', Buffer.alloc(1234, 7));
      const meta = await store.head('h/one');
      assert.ok(meta);
      assert.equal(meta.sizeBytes, 1234);
      assert.ok(meta.lastModifiedMs !== undefined);
      // stores keep whole seconds; allow for that and for clock differences with a server
      assert.ok(Math.abs(meta.lastModifiedMs - before) < 120_000, `lastModifiedMs ${meta.lastModifiedMs} vs now ${before}`);
      assert.equal(await store.head('h'), null);
    });

    it('lists by string prefix, sorted, with sizes', async () => {
      const store = await open();
      const keys = ['logs/a/1', 'logs/a/2', 'logs/b/1', 'logsx', 'other/1'];
      await Promise.all(keys.map((k, i) => store.put(k, Buffer.alloc(i + 1))));
      assert.deepEqual(await store.list('logs/'), [
        { key: 'logs/a/1', sizeBytes: 1 },
        { key: 'logs/a/2', sizeBytes: 2 },
        { key: 'logs/b/1', sizeBytes: 3 },
      ]);
      assert.deepEqual(
        (await store.list('logs')).map((o) => o.key),
        ['logs/a/1', 'logs/a/2', 'logs/b/1', 'logsx'],
      );
      assert.deepEqual(
        (await store.list('logs/a')).map((o) => o.key),
        ['logs/a/1', 'logs/a/2'],
      );
      assert.deepEqual(
        (await store.list('')).map((o) => o.key),
        keys,
      );
      assert.deepEqual(await store.list('nothing/'), []);
    });

    it('deletes objects; deleting a missing object is fine', async () => {
      const store = await open();
      await store.put('d/1', Buffer.from('1'));
      await store.put('d/2', Buffer.from('2'));
      await store.put('d/3', Buffer.from('3'));
      await store.put('keep', Buffer.from('k'));
      await store.delete('d/1');
      await store.delete('d/1');
      await store.delete('never/was');
      assert.equal(await store.head('d/1'), null);
      await assert.rejects(store.get('d/1'), ObjectNotFoundError);
      await store.deleteMany(['d/2', 'd/3', 'd/404']);
      await store.deleteMany([]);
      assert.deepEqual(
        (await store.list('')).map((o) => o.key),
        ['keep'],
      );
    });

    it('uploads a 20 MiB file streamed from disk and downloads it to a file', async () => {
      const store = await open();
      const source = join(scratch, `upload-${randomBytes(4).toString('hex')}.seg`);
      const sourceHash = await writeRandomFile(source, 20 * MiB);
      await store.put('big/segment.seg', { filePath: source });
      assert.equal((await store.head('big/segment.seg'))?.sizeBytes, 20 * MiB);

      const target = join(scratch, `download-${randomBytes(4).toString('hex')}`, 'cache', 'segment.seg');
      await store.getToFile('big/segment.seg', target);
      assert.equal(sha256(readFileSync(target)), sourceHash);
      // no temporary file is left beside the download
      assert.deepEqual(readdirSync(join(target, '..')), ['segment.seg']);

      const tail = await store.getRange('big/segment.seg', 20 * MiB - 10, 10);
      assert.deepEqual(tail, readFileSync(source).subarray(20 * MiB - 10));
    });

    it('uploads a small file and overwrites a download target', async () => {
      const store = await open();
      const source = join(scratch, `small-${randomBytes(4).toString('hex')}`);
      writeFileSync(source, 'from a file');
      await store.put('small', { filePath: source });
      const target = join(scratch, `small-target-${randomBytes(4).toString('hex')}`);
      writeFileSync(target, 'old content that is longer');
      await store.getToFile('small', target);
      assert.equal(readFileSync(target, 'utf8'), 'from a file');
    });

    it('takes concurrent puts, of different keys and of the same key', async () => {
      const store = await open();
      const bodies = Array.from({ length: 24 }, (_, i) => Buffer.alloc(10_000 + i, i));
      await Promise.all(bodies.map((b, i) => store.put(`c/${i}`, b)));
      for (let i = 0; i < bodies.length; i++) assert.deepEqual(await store.get(`c/${i}`), bodies[i]);

      const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(50_000, 65 + i));
      await Promise.all(versions.map((b) => store.put('same', b)));
      const final = await store.get('same');
      assert.ok(
        versions.some((v) => v.equals(final)),
        'the object is one whole version, not a mix',
      );
    });

    it('refuses keys that are not relative paths', async () => {
      const store = await open();
      for (const key of ['', '/abs', '../escape', 'a/../../b', 'a//b', 'a/./b', 'a/', 'back\\slash']) {
        await assert.rejects(store.put(key, Buffer.from('x')), BadRequestError, `key ${JSON.stringify(key)}`);
        await assert.rejects(store.get(key), BadRequestError, `key ${JSON.stringify(key)}`);
      }
      await assert.rejects(store.list('../'), BadRequestError);
    });

    it('verifies that it is usable', async () => {
      const store = await open();
      await store.verify();
      await store.verify({ write: false });
      // the write probe leaves nothing behind
      assert.deepEqual(await store.list(''), []);
    });
  });
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

async function writeRandomFile(path: string, sizeBytes: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let written = 0; written < sizeBytes; ) {
    const chunk = randomBytes(Math.min(MiB, sizeBytes - written));
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    written += chunk.length;
  }
  await new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });
  return hash.digest('hex');
}
