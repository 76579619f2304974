import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { IndexedDocument, IndexedField } from '../../../src/engine/document/indexed-document.js';
import { Memtable, POSITION_GAP } from '../../../src/engine/memtable/index.js';
import type { SegmentReader } from '../../../src/engine/segment-reader.js';
import { mergeSegments, openSegment, writeSegment } from '../../../src/engine/segment/index.js';
import { decodeFooter, decodeTrailer, TRAILER_BYTES } from '../../../src/engine/segment/footer.js';
import { DOCS_PACKED, DOCS_REF } from '../../../src/engine/segment/postings-codec.js';
import { isWellFormed } from '../../../src/engine/segment/strings.js';
import { decodeTermBlock, inlineDocsOf } from '../../../src/engine/segment/term-dict.js';
import { assertSameSegment, docStoreOf } from './assert-segment.js';
import { awkwardDocs, wideSource } from './awkward-sources.js';
import { generateLogs } from './log-corpus.js';
import { repoRoot } from '../../support/repo-root.js';

/** test/engine/segment/fixtures in the source tree (tests run from a build) */
const FIXTURES = path.join(repoRoot(), 'test/engine/segment/fixtures/');

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-segment-'));
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function doc(id: bigint, lid: number, ts: number, body: Record<string, unknown>, fields: IndexedField[], tsFirst = false): IndexedDocument {
  const source = tsFirst ? JSON.stringify({ _ts: ts, ...body, _lid: lid }) : JSON.stringify({ ...body, _ts: ts, _lid: lid });
  return { id, lid, ts, source, fields };
}

function memtableOf(docs: readonly IndexedDocument[], id = 'mem'): Memtable {
  const m = new Memtable(id);
  for (const d of docs) m.add(d);
  return m;
}

async function roundTrip(source: SegmentReader, name: string): Promise<ReturnType<typeof openSegment>> {
  const file = path.join(dir, `${name}.seg`);
  await writeSegment(source, file);
  return openSegment(file);
}

const HAND_DOCS: IndexedDocument[] = [
  doc(10n, 1, 1000, { _line: 'GET /api/users 200 OK', host: 'web-1', status: 200, ok: true, tags: ['a', 'b'] }, [
    { name: '_line', type: 'text', values: ['GET /api/users 200 OK'] },
    { name: 'host', type: 'keyword', values: ['web-1'] },
    { name: 'status', type: 'long', values: [200] },
    { name: 'ok', type: 'boolean', values: [true] },
    { name: 'tags', type: 'keyword', values: ['b', 'a'] },
  ]),
  doc(11n, 2, 1005, { _line: 'error: connection refused', host: 'web-2', latency: 1.25 }, [
    { name: '_line', type: 'text', values: ['error: connection refused'] },
    { name: 'host', type: 'keyword', values: ['web-2'] },
    { name: 'latency', type: 'double', values: [1.25] },
  ]),
  doc(13n, 3, 999, { _line: 'Ünïcödé 日本語 😀 emoji error', host: 'wéb-3', name: 'naïve' }, [
    { name: '_line', type: 'text', values: ['Ünïcödé 日本語 😀 emoji error'] },
    { name: 'host', type: 'keyword', values: ['wéb-3'] },
    { name: 'name', type: 'keyword', values: ['naïve'] },
  ], true),
  doc(2n ** 64n - 1n, 4, 1010, { _line: ['first value', 'second value'], when: 1700000000000 }, [
    { name: '_line', type: 'text', values: ['first value', 'second value'] },
    { name: 'when', type: 'date', values: [1700000000000] },
    { name: 'empty', type: 'keyword', values: [] },
  ]),
  doc(12n, 5, 1001, { name: '\ud800x', ok: false, tags: 'c' }, [
    { name: 'name', type: 'keyword', values: ['\ud800x'] },
    { name: 'ok', type: 'boolean', values: [false] },
    { name: 'tags', type: 'keyword', values: ['c'] },
  ]),
];

describe('segment file round trip', () => {
  it('keeps a hand-checked corpus exactly', async () => {
    const m = memtableOf(HAND_DOCS);
    const r = await roundTrip(m, 'hand');
    try {
      assert.equal(r.id, 'hand');
      assert.equal(r.numDocs, 5);
      assert.equal(r.minTs, 999);
      assert.equal(r.maxTs, 1010);
      assert.equal(r.maxLid, 5);
      assert.deepEqual(r.fields().map((f) => `${f.name}:${f.type}`), [
        '_line:text', 'host:keyword', 'status:long', 'ok:boolean', 'tags:keyword', 'latency:double', 'name:keyword', 'when:date',
      ]);
      assert.deepEqual([...r.ids()], [10n, 11n, 13n, 2n ** 64n - 1n, 12n]);
      assert.deepEqual([...r.numeric('_ts')!], [1000, 1005, 999, 1010, 1001]);
      assert.deepEqual([...r.numeric('_lid')!], [1, 2, 3, 4, 5]);
      assert.deepEqual([...r.postings('_line', 'get')!], [0]);
      assert.deepEqual([...r.postings('_line', 'error')!], [1, 2]);
      assert.equal(r.docFreq('_line', 'error'), 2);
      assert.equal(r.postings('_line', 'missing'), null);
      const value = r.positions('_line', 'value')!;
      assert.deepEqual([...value.docs], [3]);
      assert.deepEqual([...value.positions.subarray(value.offsets[0]!, value.offsets[1]!)], [1, 2 + POSITION_GAP + 1]);
      assert.deepEqual([...r.postings('_line', 'ünïcödé')!], [2]);
      assert.deepEqual([...r.postings('_line', '日本語')!], [2]);
      assert.deepEqual([...r.terms('host')], ['web-1', 'web-2', 'wéb-3']);
      assert.deepEqual([...r.terms('host', 'web-10')], ['web-2', 'wéb-3']);
      assert.deepEqual([...r.terms('name')], ['naïve', '\ud800x'].sort());
      assert.deepEqual([...r.postings('name', '\ud800x')!], [4]);
      assert.deepEqual([...r.numeric('status')!], [200, NaN, NaN, NaN, NaN]);
      assert.deepEqual([...r.numeric('ok')!], [1, NaN, NaN, NaN, 0]);
      assert.deepEqual([...r.terms('ok')], ['false', 'true']);
      assert.deepEqual([...r.numeric('latency')!], [NaN, 1.25, NaN, NaN, NaN]);
      assert.deepEqual([...r.numeric('when')!], [NaN, NaN, NaN, 1700000000000, NaN]);
      assert.equal(r.numeric('host'), null);
      const tags = r.ordinals('tags')!;
      assert.deepEqual([...tags.terms], ['a', 'b', 'c']);
      assert.deepEqual([...tags.ords], [1, -1, -1, -1, 2]);
      assert.deepEqual([...r.postings('tags', 'a')!], [0]);
      assert.equal(r.ordinals('status'), null);
      assert.deepEqual([...r.exists('host')], [0, 1, 2]);
      assert.deepEqual([...r.exists('_line')], [0, 1, 2, 3]);
      assert.equal(r.exists('empty').length, 0);
      assert.equal(r.fieldType('empty'), undefined);
      for (let d = 0; d < HAND_DOCS.length; d++) assert.equal(r.source(d), HAND_DOCS[d]!.source);
      assert.throws(() => r.source(5), RangeError);
      assertSameSegment(r, m);
    } finally {
      r.close();
    }
  });

  it('keeps a generated corpus of 20,000 docs exactly', async () => {
    const m = memtableOf(generateLogs(20_000, { seed: 7, rich: true }));
    const r = await roundTrip(m, 'generated');
    try {
      assertSameSegment(r, m, { fromProbes: 40 });
      const manyTerms = Array.from(r.terms('trace')).length;
      assert.ok(manyTerms > 10_000, 'the unique keyword has a big dictionary');
    } finally {
      r.close();
    }
  });

  it('writes a single-doc segment and an empty one', async () => {
    const one = memtableOf(HAND_DOCS.slice(0, 1));
    const r1 = await roundTrip(one, 'single');
    try {
      assertSameSegment(r1, one);
    } finally {
      r1.close();
    }
    const none = memtableOf([]);
    const r0 = await roundTrip(none, 'empty');
    try {
      assert.equal(r0.numDocs, 0);
      assert.equal(r0.minTs, Infinity);
      assert.equal(r0.maxTs, -Infinity);
      assert.equal(r0.maxLid, 0);
      assertSameSegment(r0, none);
    } finally {
      r0.close();
    }
  });

  it('stores sources whose _ts and _lid are elsewhere, or differ from the columns, as they are', async () => {
    const docs = [
      { id: 1n, lid: 1, ts: 5, source: '{"_lid":1,"_ts":5,"_line":"x"}', fields: [] },
      { id: 2n, lid: 2, ts: 6, source: '{"_line":"y","_ts":7,"_lid":2}', fields: [] },
      { id: 3n, lid: 3, ts: 7.5, source: '{"a":{"_ts":7.5,"_lid":3}}', fields: [] },
      { id: 4n, lid: 4, ts: -0, source: '{"_ts":0,"_lid":4}', fields: [] },
      { id: 5n, lid: 5, ts: 1e21, source: '{"_line":"z","_ts":1e+21,"_lid":5}', fields: [] },
      { id: 6n, lid: 6, ts: 8, source: '{"_ts":8,"b":1,"_lid":6}', fields: [] },
    ];
    const m = memtableOf(docs);
    const r = await roundTrip(m, 'sources');
    try {
      for (let d = 0; d < docs.length; d++) assert.equal(r.source(d), docs[d]!.source);
      assertSameSegment(r, m);
    } finally {
      r.close();
    }
  });

  it('keeps awkward sources byte for byte: escapes, unicode, lone surrogates, nesting, white space, odd numbers', async () => {
    const docs = [...awkwardDocs(), ...generateLogs(2_000, { seed: 12, rich: true, startLid: 40, startId: 100n })];
    for (let i = 0; i < 30; i++) {
      const lid = 3_000 + i;
      docs.push({ id: BigInt(5_000 + i), lid, ts: 2_000 + i, source: wideSource(i, 2_000 + i, lid), fields: [] });
    }
    const m = memtableOf(docs);
    const r = await roundTrip(m, 'awkward');
    try {
      // the memtable keeps sources as UTF-8, which cannot carry a lone surrogate: those texts are
      // compared with what the memtable gives (doc-store.test.ts checks them in blocks)
      for (let d = 0; d < docs.length; d++) {
        if (isWellFormed(docs[d]!.source)) assert.equal(r.source(d), docs[d]!.source, `source of doc ${d}`);
      }
      assertSameSegment(r, m, { fromProbes: 5 });
    } finally {
      r.close();
    }
  });

  it('writes a flush quickly, with text doc blocks, which a compact merge turns into column blocks', async () => {
    const docs = [...awkwardDocs(), ...generateLogs(12_000, { seed: 31, rich: true, startLid: 100, startId: 1000n })];
    const half = docs.length >> 1;
    const first = memtableOf(docs.slice(0, half), 'ta');
    const second = memtableOf(docs.slice(half), 'tb');
    const files = ['text-a', 'text-b'].map((name) => path.join(dir, `${name}.seg`));
    await writeSegment(first, files[0]!, { compression: 'quick' });
    await writeSegment(second, files[1]!, { compression: 'quick' });
    const [a, b] = files.map((f) => openSegment(f));
    try {
      const text = files.map(docStoreOf);
      for (const t of text) assert.ok(t.layouts.length > 1 && t.layouts.every((l) => l === 1), `text blocks: ${t.layouts}`);
      assertSameSegment(a!, first, { fromProbes: 5 });
      assertSameSegment(b!, second, { fromProbes: 5 });
      const mergedFile = path.join(dir, 'text-merged.seg');
      await writeSegment(mergeSegments('merged', [a!, b!]), mergedFile);
      const merged = openSegment(mergedFile);
      try {
        const columns = docStoreOf(mergedFile);
        assert.ok(columns.layouts.every((l) => l === 2), `column blocks: ${columns.layouts}`);
        assert.ok(columns.bytes < 0.9 * (text[0]!.bytes + text[1]!.bytes), `merged doc store ${columns.bytes} B against ${text[0]!.bytes + text[1]!.bytes} B`);
        assertSameSegment(merged, mergeSegments('expected', [first, second]), { fromProbes: 5 });
      } finally {
        merged.close();
      }
    } finally {
      a!.close();
      b!.close();
    }
  });

  it('reads version-1 files', () => {
    // written by the version-1 writer from these docs (see awkward-sources.ts)
    const docs = [...awkwardDocs(), ...generateLogs(600, { seed: 21, rich: true, startLid: 100, startId: 1000n })];
    const r = openSegment(path.join(FIXTURES, 'format-v1.seg'));
    try {
      const bytes = fs.readFileSync(path.join(FIXTURES, 'format-v1.seg'));
      assert.equal(decodeTrailer(bytes.subarray(bytes.length - TRAILER_BYTES)).version, 1);
      assertSameSegment(r, memtableOf(docs), { fromProbes: 5 });
    } finally {
      r.close();
    }
  });

  // written by the version-2 writer (packed columns, deflated term blocks, 512 Ki doc blocks) and
  // by the version-3 writer (column doc blocks only, at Brotli q8) from these docs
  for (const [version, seed] of [
    [2, 22],
    [3, 23],
  ] as const) {
    it(`reads version-${version} files`, () => {
      const docs = [...awkwardDocs(), ...generateLogs(3_000, { seed, rich: true, startLid: 100, startId: 1000n })];
      const file = path.join(FIXTURES, `format-v${version}.seg`);
      const r = openSegment(file);
      try {
        const bytes = fs.readFileSync(file);
        assert.equal(decodeTrailer(bytes.subarray(bytes.length - TRAILER_BYTES)).version, version);
        assertSameSegment(r, memtableOf(docs), { fromProbes: 5 });
      } finally {
        r.close();
      }
    });
  }

  it('stores a keyword column that another keyword fixes as pairs, and reads it back, merged too', async () => {
    // `dc` follows from `host` (a doc without a host is in the dc `edge`); `service` does not
    const DC: Record<string, string> = { 'web-01': 'eu', 'web-02': 'eu', 'web-03': 'us', 'api-01': 'us', 'api-02': 'ap' };
    const withDc = (docs: IndexedDocument[]): IndexedDocument[] =>
      docs.map((d, i) => {
        const host = d.fields.find((f) => f.name === 'host')!.values[0] as string;
        const fields = i % 50 === 7 ? d.fields.filter((f) => f.name !== 'host') : [...d.fields];
        const dc = i % 50 === 7 ? 'edge' : DC[host];
        if (dc !== undefined) fields.push({ name: 'dc', type: 'keyword', values: [dc] });
        return { ...d, fields };
      });
    const first = memtableOf(withDc(generateLogs(4_000, { seed: 41, rich: true })), 'a');
    const second = memtableOf(withDc(generateLogs(3_000, { seed: 42, startLid: 5_000, startId: 7_200_000_000_000_000_000n })), 'b');
    const flags = (file: string): Map<string, number> => {
      const bytes = fs.readFileSync(file);
      const trailer = decodeTrailer(bytes.subarray(bytes.length - TRAILER_BYTES));
      const footer = decodeFooter(bytes.subarray(bytes.length - TRAILER_BYTES - trailer.footerLength, bytes.length - TRAILER_BYTES), bytes.length, trailer.version);
      return new Map(footer.fields.filter((f) => f.ordinals !== null).map((f) => [f.name, bytes[f.ordinals!.offset]!]));
    };
    const a = await roundTrip(first, 'fn-a');
    const b = await roundTrip(second, 'fn-b');
    try {
      const written = flags(path.join(dir, 'fn-a.seg'));
      assert.equal(written.get('dc')! & 4, 4, 'dc as pairs');
      for (const name of ['host', 'service', 'level', 'tags']) assert.equal(written.get(name)! & 4, 0, `${name} per doc`);
      assertSameSegment(a, first, { fromProbes: 5 });
      assert.deepEqual([...a.ordinals('dc')!.ords], [...first.ordinals('dc')!.ords]);
      assertSameSegment(b, second, { fromProbes: 5 });
      const merged = await roundTrip(mergeSegments('merged', [a, b]), 'fn-merged');
      try {
        assert.equal(flags(path.join(dir, 'fn-merged.seg')).get('dc')! & 4, 4, 'merged dc as pairs');
        assertSameSegment(merged, mergeSegments('expected', [first, second]), { fromProbes: 5 });
      } finally {
        merged.close();
      }
    } finally {
      a.close();
      b.close();
    }
  });

  it('codes the doc ids of log terms plain and by reference, and reads them back', async () => {
    const m = memtableOf(generateLogs(30_000, { seed: 31 }));
    const file = path.join(dir, 'modes.seg');
    await writeSegment(m, file);
    const bytes = fs.readFileSync(file);
    const trailer = decodeTrailer(bytes.subarray(bytes.length - TRAILER_BYTES));
    const footer = decodeFooter(bytes.subarray(bytes.length - TRAILER_BYTES - trailer.footerLength, bytes.length - TRAILER_BYTES), bytes.length, trailer.version);
    const line = footer.fields.find((f) => f.name === '_line')!.terms!;
    const modes = new Map<number, number>();
    for (let b = 0; b < line.offsets.length; b++) {
      const block = decodeTermBlock(bytes.subarray(line.offsets[b]!, line.offsets[b]! + line.lengths[b]!), true, false, trailer.version);
      for (let i = 0; i < block.terms.length; i++) {
        if (inlineDocsOf(block, i) === null) modes.set(block.docsMode[i]!, (modes.get(block.docsMode[i]!) ?? 0) + 1);
      }
    }
    for (const mode of [DOCS_PACKED, DOCS_REF]) assert.ok((modes.get(mode) ?? 0) > 0, `terms with docs mode ${mode}: ${[...modes]}`);
    const r = openSegment(file);
    try {
      assertSameSegment(r, m, { fromProbes: 5 });
    } finally {
      r.close();
    }
  });

  it('writes the docs a growing source holds when the write starts', async () => {
    const docs = generateLogs(3_000, { seed: 3, rich: true });
    const all = memtableOf(docs);
    const k = 2_345;
    // a source that reports fewer docs than its arrays hold, as a memtable still taking writes
    const growing: SegmentReader = Object.create(all, { numDocs: { value: k } });
    const r = await roundTrip(growing, 'prefix');
    try {
      assertSameSegment(r, memtableOf(docs.slice(0, k)), { fromProbes: 10 });
    } finally {
      r.close();
    }
  });

  it('gives the event loop turns while it encodes', async () => {
    const m = memtableOf(generateLogs(2_000, { seed: 5 }));
    const file = path.join(dir, 'yield.seg');
    const tmp = `${file}.tmp`;
    // the file is written in 1 MiB chunks: an empty temporary file means encoding is under way
    let turnsWhileEncoding = 0;
    let writing = true;
    const spin = (): void => {
      if (fs.statSync(tmp, { throwIfNoEntry: false })?.size === 0) turnsWhileEncoding++;
      if (writing) setImmediate(spin);
    };
    setImmediate(spin);
    await writeSegment(m, file, { sliceMs: 0 });
    writing = false;
    assert.ok(turnsWhileEncoding >= 5, `event loop turns while encoding: ${turnsWhileEncoding}`);
  });

  it('replaces the file atomically and leaves no temporary file', async () => {
    const file = path.join(dir, 'atomic.seg');
    fs.writeFileSync(file, 'old contents');
    const info = await writeSegment(memtableOf(HAND_DOCS), file);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
    assert.equal(info.id, 'atomic');
    assert.equal(info.numDocs, 5);
    assert.equal(info.sizeBytes, fs.statSync(file).size);
    assert.equal(info.minTs, 999);
    assert.equal(info.maxLid, 5);
    assert.deepEqual(info.fields.map((f) => f.name), HAND_DOCS.length ? memtableOf(HAND_DOCS).fields().map((f) => f.name) : []);
    const r = openSegment(file, 'custom-id');
    assert.equal(r.id, 'custom-id');
    assert.equal(r.sizeBytes, info.sizeBytes);
    r.close();
    await assert.rejects(writeSegment(memtableOf(HAND_DOCS), path.join(dir, 'no-such-dir', 'x.seg')));
  });
});
