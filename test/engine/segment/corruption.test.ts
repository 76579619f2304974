import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CorruptionError } from '../../../src/common/errors.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import { decodeFooter, decodeTrailer, TRAILER_BYTES, type Footer } from '../../../src/engine/segment/footer.js';
import { openSegment, writeSegment } from '../../../src/engine/segment/index.js';
import { generateLogs } from './log-corpus.js';

/** enough docs for several doc-store blocks */
const DOCS = 14_000;
let dir: string;
let good: string;
let footer: Footer;
let footerStart: number;
let size: number;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-corrupt-'));
  const m = new Memtable('m');
  for (const d of generateLogs(DOCS, { seed: 11 })) m.add(d);
  good = path.join(dir, 'good.seg');
  await writeSegment(m, good);
  const bytes = fs.readFileSync(good);
  size = bytes.length;
  const trailer = decodeTrailer(bytes.subarray(size - TRAILER_BYTES));
  footerStart = size - TRAILER_BYTES - trailer.footerLength;
  footer = decodeFooter(bytes.subarray(footerStart, size - TRAILER_BYTES), size);
});

after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let copies = 0;
/** A copy of the good file with `change` applied to its bytes. */
function damaged(change: (bytes: Buffer) => Buffer): string {
  const file = path.join(dir, `bad-${copies++}.seg`);
  fs.writeFileSync(file, change(Buffer.from(fs.readFileSync(good))));
  return file;
}

function flip(at: number): (bytes: Buffer) => Buffer {
  return (bytes) => {
    bytes[at]! ^= 0x5a;
    return bytes;
  };
}

function assertCorrupt(fn: () => unknown, file: string, reason?: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof CorruptionError, `expected CorruptionError, got ${String(err)}`);
    assert.equal(err.type, 'corrupt_index_exception');
    assert.ok(err.message.includes(file), 'names the file');
    if (reason) assert.match(err.message, reason);
    return true;
  });
}

describe('segment file corruption', () => {
  it('opens the undamaged file', () => {
    const r = openSegment(good);
    assert.equal(r.numDocs, DOCS);
    assert.ok(footer.docStore.crcs.length >= 3, `several doc blocks: ${footer.docStore.crcs.length}`);
    r.close();
  });

  it('rejects a flipped byte anywhere in the footer', () => {
    for (const at of [footerStart, footerStart + 7, Math.floor((footerStart + size - TRAILER_BYTES) / 2), size - TRAILER_BYTES - 1]) {
      const file = damaged(flip(at));
      assertCorrupt(() => openSegment(file), file, /checksum/);
    }
  });

  it('rejects a damaged trailer, magic or format version', () => {
    const lengthByte = damaged(flip(size - TRAILER_BYTES));
    assertCorrupt(() => openSegment(lengthByte), lengthByte);
    const crcByte = damaged(flip(size - TRAILER_BYTES + 5));
    assertCorrupt(() => openSegment(crcByte), crcByte, /checksum/);
    const version = damaged((b) => {
      b.writeUInt32LE(99, size - 8);
      return b;
    });
    assertCorrupt(() => openSegment(version), version, /version 99/);
    const magic = damaged(flip(size - 1));
    assertCorrupt(() => openSegment(magic), magic, /magic/);
  });

  it('rejects truncated files and files that are not segments', () => {
    for (const keep of [size - 1, size - TRAILER_BYTES, Math.floor(size / 2), 10, 0]) {
      const file = damaged((b) => b.subarray(0, keep));
      assertCorrupt(() => openSegment(file), file);
    }
    const text = damaged(() => Buffer.from('{"not":"a segment"}\n'.repeat(10)));
    assertCorrupt(() => openSegment(text), text);
  });

  it('reports a damaged doc-store block when one of its docs is read, and only then', () => {
    const ds = footer.docStore;
    const last = ds.crcs.length - 1;
    const file = damaged(flip(ds.offsets[1]! + 20));
    const r = openSegment(file);
    try {
      assert.equal(typeof r.source(0), 'string');
      assert.equal(typeof r.source(ds.firstDocs[last]!), 'string');
      assertCorrupt(() => r.source(ds.firstDocs[1]!), file, /doc block 1/);
      assertCorrupt(() => r.source(ds.firstDocs[2]! - 1), file, /doc block 1/);
    } finally {
      r.close();
    }
  });

  it('reports damaged columns and term blocks when they are read', () => {
    const ts = damaged(flip(footer.ts.offset + 3));
    const r1 = openSegment(ts);
    assertCorrupt(() => r1.numeric('_ts'), ts, /checksum/);
    assert.equal(r1.numeric('_lid')!.length, DOCS);
    r1.close();

    const line = footer.fields.find((f) => f.name === '_line')!;
    const index = line.terms!;
    const block = Math.floor(index.firstTerms.length / 2);
    const term = index.firstTerms[block]!;
    const file = damaged(flip(index.offsets[block]! + 5));
    const r2 = openSegment(file);
    try {
      assertCorrupt(() => r2.docFreq('_line', term), file, /term block/);
      assertCorrupt(() => r2.postings('_line', term), file, /term block/);
      assert.ok(r2.docFreq('_line', index.firstTerms[0]!) > 0);
    } finally {
      r2.close();
    }
  });
});
