import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BadRequestError } from '../../src/common/errors.js';
import { LocalObjectStore, ObjectStoreConfigError } from '../../src/storage/index.js';
import { describeObjectStore } from './behaviour.js';

const root = mkdtempSync(join(tmpdir(), 'svc-local-store-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const fresh = (): LocalObjectStore => new LocalObjectStore(join(root, `store-${++counter}`));

describeObjectStore('local', async () => fresh());

/** a writable folder on another filesystem than the temp folder (e.g. /dev/shm), if there is one */
function otherFilesystem(): string | undefined {
  try {
    return statSync('/dev/shm').dev !== statSync(root).dev ? '/dev/shm' : undefined;
  } catch {
    return undefined;
  }
}

describe('local object store on disk', () => {
  it('keeps one file per object at its key path, and no temporary files after a put', async () => {
    const store = fresh();
    await store.put('a/b/c.seg', Buffer.from('abc'));
    assert.equal(statSync(join(store.root, 'a', 'b', 'c.seg')).size, 3);
    assert.deepEqual(readdirSync(join(store.root, '.svc-tmp')), []);
    assert.equal(store.uri, `file://${store.root}`);
  });

  it('hard-links an uploaded file on the same filesystem', async () => {
    const store = fresh();
    const source = join(root, `source-${counter}`);
    writeFileSync(source, 'segment bytes');
    await store.put('seg/1', { filePath: source });
    assert.equal(statSync(source).ino, statSync(join(store.root, 'seg', '1')).ino);
    // the object outlives the source file
    rmSync(source);
    assert.equal((await store.get('seg/1')).toString(), 'segment bytes');
  });

  it('copies an uploaded file from another filesystem', { skip: otherFilesystem() === undefined ? 'no second filesystem' : false }, async () => {
    const store = fresh();
    await store.verify();
    const dir = mkdtempSync(join(otherFilesystem() ?? '', 'svc-local-store-'));
    try {
      const source = join(dir, 'segment');
      writeFileSync(source, 'bytes from elsewhere');
      await store.put('seg/2', { filePath: source });
      assert.notEqual(statSync(source).ino, statSync(join(store.root, 'seg', '2')).ino);
      assert.equal((await store.get('seg/2')).toString(), 'bytes from elsewhere');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('downloads to a file of its own, not a link to the object', async () => {
    const store = fresh();
    await store.put('seg/3', Buffer.from('immutable'));
    const target = join(root, `cache-${counter}`);
    await store.getToFile('seg/3', target);
    assert.notEqual(statSync(target).ino, statSync(join(store.root, 'seg', '3')).ino);
    writeFileSync(target, 'changed');
    assert.equal((await store.get('seg/3')).toString(), 'immutable');
  });

  it('removes folders left empty by a delete', async () => {
    const store = fresh();
    await store.put('x/y/z', Buffer.from('1'));
    await store.put('x/keep', Buffer.from('2'));
    await store.delete('x/y/z');
    assert.equal(existsSync(join(store.root, 'x', 'y')), false);
    assert.equal(existsSync(join(store.root, 'x', 'keep')), true);
  });

  it('refuses keys that would escape the root or use the staging folder', async () => {
    const store = fresh();
    await assert.rejects(store.put('../outside', Buffer.from('x')), BadRequestError);
    await assert.rejects(store.put('.svc-tmp/x', Buffer.from('x')), BadRequestError);
    assert.equal(existsSync(join(root, 'outside')), false);
  });

  it('does not list folders, only files', async () => {
    const store = fresh();
    await store.put('dir/file', Buffer.from('1'));
    mkdirSync(join(store.root, 'empty-dir'));
    assert.deepEqual(await store.list(''), [{ key: 'dir/file', sizeBytes: 1 }]);
    assert.equal(await store.head('dir'), null);
  });

  it('verify() creates the root, and fails with ObjectStoreConfigError when it cannot', async () => {
    const store = fresh();
    await store.verify();
    assert.ok(statSync(store.root).isDirectory());
    const file = join(root, `a-file-${counter}`);
    writeFileSync(file, '');
    await assert.rejects(new LocalObjectStore(join(file, 'sub')).verify(), ObjectStoreConfigError);
  });
});
