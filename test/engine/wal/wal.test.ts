import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wal, walFileName } from '../../../src/engine/wal/index.js';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function replayAll(wal: Wal): Promise<Array<{ seq: number; text: string }>> {
  const out: Array<{ seq: number; text: string }> = [];
  for await (const r of wal.replay()) out.push({ seq: r.seq, text: r.payload.toString() });
  return out;
}

const buf = (s: string): Buffer => Buffer.from(s);

test('records round trip through close and reopen', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  const { seq } = await wal.append([buf('one'), buf('two')]);
  await wal.append([buf('three')]);
  await wal.close();

  const again = await Wal.open(dir);
  const records = await replayAll(again);
  assert.deepEqual(records, [
    { seq, text: 'one' },
    { seq, text: 'two' },
    { seq, text: 'three' },
  ]);
  await again.close();
});

test('binary payloads come back byte for byte', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  const payload = Buffer.alloc(70_000);
  for (let i = 0; i < payload.length; i++) payload[i] = (i * 31) & 0xff;
  await wal.append([payload]);
  // the log copies on append, so a caller reusing its buffer does not change the record
  payload.fill(0);
  await wal.close();
  const again = await Wal.open(dir);
  const got: Buffer[] = [];
  for await (const r of again.replay()) got.push(Buffer.from(r.payload));
  assert.equal(got.length, 1);
  for (let i = 0; i < 70_000; i++) if (got[0]![i] !== ((i * 31) & 0xff)) assert.fail(`byte ${i} differs`);
  await again.close();
});

test('concurrent appends land on disk in call order', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  const pending: Array<Promise<unknown>> = [];
  for (let i = 0; i < 200; i++) pending.push(wal.append([buf(`a${i}`), buf(`b${i}`)]));
  await Promise.all(pending);
  await wal.close();
  const again = await Wal.open(dir);
  const texts = (await replayAll(again)).map((r) => r.text);
  const expected: string[] = [];
  for (let i = 0; i < 200; i++) expected.push(`a${i}`, `b${i}`);
  assert.deepEqual(texts, expected);
  await again.close();
});

test('group commit: appends waiting on an fsync share the next one', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  // 100 concurrent writers, each appending 5 times in sequence: each new append arrives while
  // other writers' appends are being written and synced
  const writers: Array<Promise<void>> = [];
  for (let w = 0; w < 100; w++) {
    writers.push(
      (async () => {
        for (let i = 0; i < 5; i++) await wal.append([buf(`w${w}-${i}`)]);
      })(),
    );
  }
  await Promise.all(writers);
  assert.equal(wal.stats.appends, 500);
  assert.ok(wal.stats.fsyncs < 50, `expected far fewer fsyncs than appends, got ${wal.stats.fsyncs}`);
  assert.ok(wal.stats.writes < 50, `expected grouped writes, got ${wal.stats.writes}`);
  await wal.close();

  const again = await Wal.open(dir);
  const texts = (await replayAll(again)).map((r) => r.text);
  assert.equal(texts.length, 500);
  // each writer's own appends stay in order
  for (let w = 0; w < 100; w++) {
    const mine = texts.filter((s) => s.startsWith(`w${w}-`));
    assert.deepEqual(mine, [0, 1, 2, 3, 4].map((i) => `w${w}-${i}`));
  }
  await again.close();
});

test('100 appends issued together need only a handful of fsyncs', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  const results = await Promise.all(Array.from({ length: 100 }, (_, i) => wal.append([buf(`r${i}`)])));
  assert.equal(results.length, 100);
  assert.ok(wal.stats.fsyncs <= 5, `fsyncs ${wal.stats.fsyncs}`);
  await wal.close();
});

test('rotate starts a new file; records before and after are split by call order', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  const first = wal.append([buf('before')]);
  const rotated = wal.rotate();
  const second = wal.append([buf('after')]);
  const [a, newSeq, b] = await Promise.all([first, rotated, second]);
  assert.ok(newSeq > a.seq);
  assert.equal(b.seq, newSeq);
  const third = await wal.rotate();
  assert.ok(third > newSeq);
  // nothing written since the last rotation: no new file is needed
  assert.equal(await wal.rotate(), third);
  assert.deepEqual(await wal.files(), [a.seq, newSeq, third]);
  await wal.close();

  const again = await Wal.open(dir);
  assert.deepEqual(await replayAll(again), [
    { seq: a.seq, text: 'before' },
    { seq: newSeq, text: 'after' },
  ]);
  await again.close();
});

test('files rotate by size and each append is whole within one file', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir, { maxFileBytes: 200 });
  const seqs: number[] = [];
  for (let i = 0; i < 30; i++) seqs.push((await wal.append([buf(`record-${i}`), buf(`extra-${i}`)])).seq);
  await wal.close();
  const files = readdirSync(dir).sort();
  assert.ok(files.length > 3, `expected several files, got ${files.length}`);
  for (const f of files) {
    // a file may only pass the limit when a single append is bigger than it
    assert.ok(statSync(join(dir, f)).size <= 200, `${f} is too large`);
  }
  const again = await Wal.open(dir);
  const records = await replayAll(again);
  assert.equal(records.length, 60);
  for (let i = 0; i < 30; i++) {
    assert.deepEqual(records[2 * i], { seq: seqs[i], text: `record-${i}` });
    assert.deepEqual(records[2 * i + 1], { seq: seqs[i], text: `extra-${i}` });
  }
  await again.close();
});

test('an append larger than the file limit gets a file of its own', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir, { maxFileBytes: 64 });
  const small = await wal.append([buf('x')]);
  const big = await wal.append([Buffer.alloc(500, 1)]);
  const after = await wal.append([buf('y')]);
  assert.ok(big.seq > small.seq);
  assert.ok(after.seq > big.seq);
  await wal.close();
});

test('removeFilesBefore deletes older files only', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  const a = await wal.append([buf('a')]);
  const s2 = await wal.rotate();
  await wal.append([buf('b')]);
  const s3 = await wal.rotate();
  await wal.append([buf('c')]);
  await wal.removeFilesBefore(s3);
  assert.deepEqual(await wal.files(), [s3]);
  assert.ok(a.seq < s2 && s2 < s3);
  // the current file is never removed, even when asked to
  await wal.removeFilesBefore(s3 + 10);
  assert.deepEqual(await wal.files(), [s3]);
  await wal.close();

  const again = await Wal.open(dir);
  assert.deepEqual(await replayAll(again), [{ seq: s3, text: 'c' }]);
  await again.close();
});

test('reopening continues the sequence after the newest file', async (t) => {
  const dir = tempDir(t);
  const first = await Wal.open(dir);
  const a = await first.append([buf('a')]);
  await first.close();

  const second = await Wal.open(dir);
  assert.deepEqual(await replayAll(second), [{ seq: a.seq, text: 'a' }]);
  const b = await second.append([buf('b')]);
  assert.ok(b.seq > a.seq);
  const fresh = await second.rotate();
  await second.removeFilesBefore(fresh);
  await second.close();

  const third = await Wal.open(dir);
  const c = await third.append([buf('c')]);
  assert.ok(c.seq > fresh);
  await third.close();
  assert.ok(readdirSync(dir).includes(walFileName(c.seq)));

  const fourth = await Wal.open(dir);
  assert.deepEqual(await replayAll(fourth), [{ seq: c.seq, text: 'c' }]);
  await fourth.close();
});

test('invalid use is refused', async (t) => {
  const dir = tempDir(t);
  const first = await Wal.open(dir);
  await first.append([buf('a'), buf('b')]);
  await first.close();
  const wal = await Wal.open(dir);
  await assert.rejects(wal.append([Buffer.alloc(0)]), RangeError);
  const running = wal.replay();
  await running.next();
  await assert.rejects(async () => {
    for await (const _ of wal.replay()) void _;
  }, /already running/);
  await running.return(undefined);
  await wal.close();
  await assert.rejects(wal.append([buf('b')]), /closed/);
  await assert.rejects(Wal.open(dir, { maxFileBytes: 8 }), RangeError);
});

test('replay reads the files that existed at open, while appends go on to newer files', async (t) => {
  const dir = tempDir(t);
  const before = await Wal.open(dir);
  await before.append([buf('old 1'), buf('old 2')]);
  await before.close();

  const wal = await Wal.open(dir);
  const seen: string[] = [];
  for await (const { payload } of wal.replay()) {
    seen.push(payload.toString());
    // a write taken during the replay is not replayed back
    await wal.append([buf(`new after ${payload.toString()}`)]);
  }
  assert.deepEqual(seen, ['old 1', 'old 2']);
  // a second pass reads the same files again (the engine reads ids and lids first)
  assert.deepEqual((await replayAll(wal)).map((r) => r.text), ['old 1', 'old 2']);
  await wal.close();

  const reopened = await Wal.open(dir);
  assert.deepEqual((await replayAll(reopened)).map((r) => r.text), ['old 1', 'old 2', 'new after old 1', 'new after old 2']);
  await reopened.close();
});

test('close waits for appends still in flight', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  const pending = Array.from({ length: 20 }, (_, i) => wal.append([buf(`p${i}`)]));
  await wal.close();
  await Promise.all(pending);
  const again = await Wal.open(dir);
  assert.equal((await replayAll(again)).length, 20);
  await again.close();
});
