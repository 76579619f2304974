import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorruptionError } from '../../../src/common/errors.js';
import { Wal, walFileName, type WalLogger } from '../../../src/engine/wal/index.js';

const HEADER_BYTES = 16;
const FRAME_HEADER_BYTES = 8;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wal-recovery-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function recordingLogger(): WalLogger & { warnings: Array<{ obj: object; msg: string }> } {
  const warnings: Array<{ obj: object; msg: string }> = [];
  return { warnings, warn: (obj, msg) => warnings.push({ obj, msg }) };
}

async function texts(wal: Wal): Promise<string[]> {
  const out: string[] = [];
  for await (const r of wal.replay()) out.push(r.payload.toString());
  return out;
}

/** Writes the records into one fresh file and returns its path and each record's start offset. */
async function writeFile(dir: string, records: string[]): Promise<{ path: string; offsets: number[] }> {
  const wal = await Wal.open(dir);
  const { seq } = await wal.append(records.map((r) => Buffer.from(r)));
  await wal.close();
  const offsets: number[] = [];
  let at = HEADER_BYTES;
  for (const r of records) {
    offsets.push(at);
    at += FRAME_HEADER_BYTES + Buffer.byteLength(r);
  }
  const path = join(dir, walFileName(seq));
  assert.equal(statSync(path).size, at);
  return { path, offsets };
}

const RECORDS = ['alpha', 'bravo', 'charlie', 'delta', 'the last record, a little longer than the rest'];

test('a tail cut at every byte of the last record is dropped, and appends after it are clean', async (t) => {
  const base = tempDir(t);
  const source = join(base, 'source');
  mkdirSync(source);
  const { path, offsets } = await writeFile(source, RECORDS);
  const lastStart = offsets[offsets.length - 1]!;
  const fullSize = statSync(path).size;

  for (let cut = lastStart; cut < fullSize; cut++) {
    const dir = join(base, `cut-${cut}`);
    mkdirSync(dir);
    const copy = join(dir, walFileName(1));
    copyFileSync(path, copy);
    truncateSync(copy, cut);

    const logger = recordingLogger();
    const wal = await Wal.open(dir, { logger });
    assert.deepEqual(await texts(wal), RECORDS.slice(0, -1), `cut at ${cut}`);
    // a cut exactly at a record boundary leaves a clean file
    assert.equal(logger.warnings.length, cut === lastStart ? 0 : 1, `cut at ${cut}`);
    assert.equal(statSync(copy).size, lastStart, `cut at ${cut}: file truncated to the last good record`);
    await wal.append([Buffer.from('appended')]);
    await wal.close();

    const quiet = recordingLogger();
    const again = await Wal.open(dir, { logger: quiet });
    assert.deepEqual(await texts(again), [...RECORDS.slice(0, -1), 'appended'], `cut at ${cut}`);
    assert.equal(quiet.warnings.length, 0);
    await again.close();
    rmSync(dir, { recursive: true });
  }
});

test('a checksum mismatch in the last record is a torn tail', async (t) => {
  const dir = tempDir(t);
  const { path, offsets } = await writeFile(dir, RECORDS);
  const bytes = readFileSync(path);
  bytes[offsets[4]! + FRAME_HEADER_BYTES + 3]! ^= 0xff;
  writeFileSync(path, bytes);

  const logger = recordingLogger();
  const wal = await Wal.open(dir, { logger });
  assert.deepEqual(await texts(wal), RECORDS.slice(0, -1));
  assert.equal(logger.warnings.length, 1);
  assert.match(JSON.stringify(logger.warnings[0]!.obj), /checksum mismatch/);
  await wal.close();
});

test('zeros or garbage after the last record are a torn tail', async (t) => {
  for (const tail of [Buffer.alloc(4096), Buffer.from('\x07\x00\x00\x00garbage that is not a frame')]) {
    const dir = tempDir(t);
    const { path } = await writeFile(dir, RECORDS);
    appendFileSync(path, tail);
    const logger = recordingLogger();
    const wal = await Wal.open(dir, { logger });
    assert.deepEqual(await texts(wal), RECORDS);
    assert.equal(logger.warnings.length, 1);
    await wal.close();
  }
});

test('a newest file whose header never reached disk is removed', async (t) => {
  const dir = tempDir(t);
  await writeFile(dir, ['kept']);
  writeFileSync(join(dir, walFileName(2)), Buffer.from([0x53, 0x57, 0x41]));
  const logger = recordingLogger();
  const wal = await Wal.open(dir, { logger });
  assert.deepEqual(await texts(wal), ['kept']);
  assert.equal(logger.warnings.length, 1);
  assert.deepEqual(readdirSync(dir), [walFileName(1)]);
  await wal.append([Buffer.from('next')]);
  await wal.close();
  const again = await Wal.open(dir);
  assert.deepEqual(await texts(again), ['kept', 'next']);
  await again.close();
});

test('a checksum mismatch followed by valid records is corruption naming file and offset', async (t) => {
  const dir = tempDir(t);
  const { path, offsets } = await writeFile(dir, RECORDS);
  const bytes = readFileSync(path);
  bytes[offsets[1]! + FRAME_HEADER_BYTES]! ^= 0x01;
  writeFileSync(path, bytes);

  const wal = await Wal.open(dir, { logger: recordingLogger() });
  await assert.rejects(texts(wal), (err: unknown) => {
    assert.ok(err instanceof CorruptionError);
    assert.ok(err.message.includes(path), err.message);
    assert.ok(err.message.includes(`offset ${offsets[1]}`), err.message);
    return true;
  });
  // nothing was cut off
  assert.equal(statSync(path).size, bytes.length);
  await wal.close();
});

test('a corrupted length field in the middle does not hide the records behind it', async (t) => {
  const dir = tempDir(t);
  const { path, offsets } = await writeFile(dir, RECORDS);
  const bytes = readFileSync(path);
  bytes.writeUInt32LE(0x00ffffff, offsets[2]!);
  writeFileSync(path, bytes);
  const wal = await Wal.open(dir, { logger: recordingLogger() });
  await assert.rejects(texts(wal), CorruptionError);
  await wal.close();
});

test('damage anywhere in an older file is corruption', async (t) => {
  const dir = tempDir(t);
  const wal = await Wal.open(dir);
  await wal.append([Buffer.from('old-1'), Buffer.from('old-2')]);
  await wal.rotate();
  await wal.append([Buffer.from('new')]);
  await wal.close();
  const older = join(dir, walFileName(1));
  truncateSync(older, statSync(older).size - 2);

  const again = await Wal.open(dir, { logger: recordingLogger() });
  await assert.rejects(texts(again), (err: unknown) => err instanceof CorruptionError && err.message.includes(older));
  await again.close();
});

test('a bad header is corruption', async (t) => {
  const dir = tempDir(t);
  const { path } = await writeFile(dir, ['x']);
  const bytes = readFileSync(path);
  bytes.writeUInt32LE(99, 4);
  writeFileSync(path, bytes);
  const wal = await Wal.open(dir);
  await assert.rejects(texts(wal), /unsupported wal version 99/);
  await wal.close();
});

test('appending without a replay still cuts a torn tail before starting a new file', async (t) => {
  const dir = tempDir(t);
  const { path, offsets } = await writeFile(dir, RECORDS);
  truncateSync(path, offsets[4]! + 3);
  const logger = recordingLogger();
  const wal = await Wal.open(dir, { logger });
  await wal.append([Buffer.from('later')]);
  await wal.close();
  assert.equal(logger.warnings.length, 1);
  const again = await Wal.open(dir);
  assert.deepEqual(await texts(again), [...RECORDS.slice(0, -1), 'later']);
  await again.close();
});
