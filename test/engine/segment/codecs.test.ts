import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { crc32, crc32Portable } from '../../../src/common/crc32.js';
import { decodeU32Stream, encodeU32Stream } from '../../../src/engine/segment/bitpack.js';
import { FormatError } from '../../../src/engine/segment/byte-reader.js';
import { ByteWriter } from '../../../src/engine/segment/byte-writer.js';
import { checksum } from '../../../src/engine/segment/checksum.js';
import {
  decodeIdColumn,
  decodeNumericColumn,
  decodeOrdinalColumn,
  encodeIdColumn,
  encodeNumericColumn,
  encodeOrdinalColumn,
} from '../../../src/engine/segment/column-codec.js';
import {
  DOCS_REF,
  POSITIONS_DEFLATE,
  POSITIONS_PACKED,
  decodeDocIds,
  decodePositions,
  encodeDocIds,
  encodePositions,
  encodePostingDocs,
} from '../../../src/engine/segment/postings-codec.js';
import { FORMAT_VERSION } from '../../../src/engine/segment/footer.js';
import { applyOrdinalFunction, findOrdinalFunction } from '../../../src/engine/segment/ordinal-function.js';
import { decodePlaneStream, encodePlaneStream } from '../../../src/engine/segment/plane-stream.js';
import { ReferenceChooser, encodeReference } from '../../../src/engine/segment/reference-postings.js';
import { INLINE_MAX_DOCS, decodeTermBlock, inlineDocsOf, inlinePostingsOf, TermDictWriter } from '../../../src/engine/segment/term-dict.js';
import { makeRandom } from './log-corpus.js';

/** Encodes after `lead` bytes (to move the stream off alignment), decodes, compares. */
function roundTripStream(values: Uint32Array, lead: number): number {
  const w = new ByteWriter();
  for (let i = 0; i < lead; i++) w.u8(0xee);
  encodeU32Stream(w, values, 0, values.length);
  const bytes = w.toBytes();
  const out = new Uint32Array(values.length);
  const end = decodeU32Stream(bytes, lead, values.length, out, 0);
  assert.equal(end, bytes.length, 'decoder stops where the encoder did');
  assert.deepEqual(out, values);
  return bytes.length - lead;
}

describe('packed u32 streams', () => {
  it('round-trip every width, block counts and tails, at any alignment', () => {
    const rnd = makeRandom(5);
    for (const count of [0, 1, 2, 127, 128, 129, 255, 256, 1000]) {
      for (const width of [0, 1, 3, 7, 8, 13, 16, 24, 31, 32]) {
        const values = new Uint32Array(count);
        for (let i = 0; i < count; i++) values[i] = Math.floor(rnd() * 2 ** width);
        for (const lead of [0, 1, 2, 3]) roundTripStream(values, lead);
      }
    }
  });

  it('splits long-tailed values into packed low bits and unary high parts', () => {
    const rnd = makeRandom(17);
    // geometric values with mean 300 and a rare large one: packing pays for the widest of each 128
    const values = Uint32Array.from({ length: 12_800 }, () => Math.floor(-Math.log(1 - rnd()) * 300) + (rnd() < 0.02 ? 20_000 : 0));
    const bytes = roundTripStream(values, 3);
    const w = new ByteWriter();
    encodeU32Stream(w, values, 0, values.length, false);
    assert.ok(bytes < w.length * 0.85, `split ${bytes} bytes, packed only ${w.length}`);
    // huge and zero values, all split parameters
    for (let k = 0; k <= 31; k++) roundTripStream(Uint32Array.from({ length: 256 }, () => Math.floor(rnd() * 2 ** k) + (rnd() < 0.01 ? 2 ** 31 : 0)), k % 4);
  });

  it('packs dense gaps as unary blocks, smaller than bit packing', () => {
    const values = new Uint32Array(128 * 8);
    // mostly zero gaps with rare outliers: packing needs 5 bits each, unary about one
    for (let i = 0; i < values.length; i++) values[i] = i % 97 === 0 ? 20 : i % 3 === 0 ? 1 : 0;
    const size = roundTripStream(values, 1);
    assert.ok(size < (values.length * 5) / 8 / 2, `unary blocks are small (${size} bytes)`);
  });

  it('reports damaged block codes and short data as FormatError', () => {
    const values = new Uint32Array(300).fill(5);
    const w = new ByteWriter();
    encodeU32Stream(w, values, 0, values.length);
    const bytes = w.toBytes();
    const bad = bytes.slice();
    bad[0] = 60;
    assert.throws(() => decodeU32Stream(bad, 0, 300, new Uint32Array(300), 0), FormatError);
    assert.throws(() => decodeU32Stream(bytes.subarray(0, bytes.length - 2), 0, 300, new Uint32Array(300), 0), FormatError);
  });
});

describe('posting blobs', () => {
  it('round-trip doc ids and positions in both position modes', () => {
    const rnd = makeRandom(9);
    for (const [nDocs, maxFreq, spread] of [[2, 1, 1000], [50, 3, 40], [300, 1, 3], [2000, 4, 5]] as const) {
      const docs = new Uint32Array(nDocs);
      let d = 0;
      for (let i = 0; i < nDocs; i++) docs[i] = d += 1 + Math.floor(rnd() * spread);
      const offsets = new Uint32Array(nDocs + 1);
      const positions: number[] = [];
      for (let i = 0; i < nDocs; i++) {
        // the many-doc case repeats one layout, as a template word of log lines does
        const f = nDocs === 2000 ? 1 + (i % 3) : 1 + Math.floor(rnd() * maxFreq);
        let p = nDocs === 2000 ? 2 : Math.floor(rnd() * 8);
        for (let j = 0; j < f; j++) positions.push((p += nDocs === 2000 ? 4 : Math.floor(rnd() * 4)));
        offsets[i + 1] = positions.length;
      }
      const w = new ByteWriter();
      encodeDocIds(w, docs);
      const docsLen = w.length;
      const mode = encodePositions(w, { docs, offsets, positions: Uint32Array.from(positions) }, nDocs, 6);
      const bytes = w.toBytes();
      assert.deepEqual(decodeDocIds(bytes, 0, nDocs, d + 1), docs);
      const back = decodePositions(bytes, docsLen, bytes.length, nDocs, mode);
      assert.deepEqual(back.offsets, offsets);
      assert.deepEqual([...back.positions], positions);
      if (nDocs === 2000) assert.equal(mode, POSITIONS_DEFLATE, 'many repetitive positions deflate');
      if (nDocs === 2) assert.equal(mode, POSITIONS_PACKED);
    }
  });

  it('rejects doc ids past the segment and unsorted input', () => {
    const w = new ByteWriter();
    encodeDocIds(w, Uint32Array.of(3, 9));
    assert.throws(() => decodeDocIds(w.toBytes(), 0, 2, 9), FormatError);
    assert.throws(() => encodeDocIds(new ByteWriter(), Uint32Array.of(4, 4)), /increasing/);
  });
});

describe('posting docs modes', () => {
  it('code a term by reference to an earlier one and decode it against that term', () => {
    const numDocs = 50_000;
    const rnd = makeRandom(6);
    const base = Uint32Array.from({ length: numDocs }, (_, i) => i).filter(() => rnd() < 0.3);
    // nearly a subset of the base, with a few docs outside it
    const term = Uint32Array.from([...base.filter(() => rnd() < 0.5), 3, 5, 7].filter((d, i, a) => a.indexOf(d) === i).sort((a, b) => a - b));
    const chooser = new ReferenceChooser(numDocs);
    chooser.offer(0, base);
    const plain = new ByteWriter();
    encodePostingDocs(plain, term);
    const ref = chooser.choose(term, plain.length);
    assert.ok(ref !== null, 'a reference is chosen');
    assert.equal(ref.rank, 0);
    const w = new ByteWriter();
    w.u8(0xee);
    encodeReference(w, ref, encodePostingDocs);
    assert.ok(ReferenceChooser.worthIt(w.length, plain.length), `${w.length} bytes by reference, ${plain.length} plain`);
    const bytes = w.toBytes();
    const docs = decodeDocIds(bytes, 1, term.length, numDocs, DOCS_REF, (rank) => {
      assert.equal(rank, 0);
      return base;
    });
    assert.deepEqual(docs, term);
    assert.throws(() => decodeDocIds(bytes, 1, term.length, numDocs, DOCS_REF, null), FormatError);
    assert.throws(() => decodeDocIds(bytes, 1, term.length, numDocs, DOCS_REF, () => base.subarray(0, 10)), FormatError);
    // an unrelated term takes no reference
    assert.equal(chooser.choose(Uint32Array.from({ length: 500 }, (_, i) => i * 97 + 1), 400), null);
  });
});

describe('plane streams', () => {
  it('round-trip values of every byte width, after a lead', () => {
    const rnd = makeRandom(17);
    for (const max of [0, 1, 200, 255, 256, 40_000, 65_535, 65_536, 2 ** 24 - 1, 2 ** 24, 2 ** 32 - 1]) {
      for (const count of [1, 7, 1_000]) {
        const values = new Uint32Array(count + 3);
        for (let i = 3; i < values.length; i++) values[i] = i === 3 ? max : Math.floor(rnd() * (max + 1));
        const stream = encodePlaneStream(values, 3, count);
        const bytes = new Uint8Array(stream.length + 5);
        bytes.set(stream, 5);
        const out = new Uint32Array(count + 2).fill(7);
        assert.equal(decodePlaneStream(bytes, 5, count, out, 2), bytes.length, `end of stream, max ${max}`);
        assert.deepEqual([...out.subarray(2)], [...values.subarray(3)], `max ${max}, count ${count}`);
        assert.deepEqual([...out.subarray(0, 2)], [7, 7]);
      }
    }
  });

  it('report a wrong count, width or damaged data as FormatError', () => {
    const values = Uint32Array.from({ length: 500 }, (_, i) => (i * 7919) % 300);
    const stream = encodePlaneStream(values, 0, values.length);
    const out = new Uint32Array(600);
    assert.throws(() => decodePlaneStream(stream, 0, 499, out, 0), FormatError);
    assert.throws(() => decodePlaneStream(Uint8Array.of(5, ...stream.subarray(1)), 0, 500, out, 0), FormatError);
    const damaged = stream.slice();
    damaged[damaged.length - 3]! ^= 0xff;
    assert.throws(() => decodePlaneStream(damaged, 0, 500, out, 0), FormatError);
    assert.throws(() => decodePlaneStream(stream.subarray(0, stream.length - 1), 0, 500, out, 0), FormatError);
  });
});

describe('columns', () => {
  const cases: Array<[string, number[]]> = [
    ['empty', [NaN, NaN, NaN]],
    ['timestamps', [1700000000000, 1700000000005, 1700000000003, 1700000001000]],
    ['sparse longs', [NaN, 5, NaN, -3, 200, NaN]],
    ['decimals', [0.5, 1.25, 99.99, -0.01, NaN]],
    ['doubles', [Math.PI, 1e-300, -2.5e10, 0.1 + 0.2]],
    ['negative zero and infinities', [-0, 0, Infinity, -Infinity, 1]],
    ['wide integers', [2 ** 52, -(2 ** 52), 0, 1]],
    ['booleans', [1, 0, 0, 1, NaN, 1]],
    ['few distinct doubles', [0.1 + 0.2, Math.PI, 0.1 + 0.2, NaN, Math.PI, -Infinity]],
  ];
  for (const [name, values] of cases) {
    it(`round-trips a numeric column: ${name}`, () => {
      const col = Float64Array.from(values);
      const back = decodeNumericColumn(encodeNumericColumn(col, col.length), col.length);
      assert.equal(back.length, values.length);
      for (let i = 0; i < values.length; i++) assert.ok(Object.is(back[i], values[i]), `value ${i}: ${back[i]} vs ${values[i]}`);
    });
  }

  it('encodes a column of nearly sorted integers in a few bits per value', () => {
    const col = new Float64Array(10_000);
    for (let i = 0; i < col.length; i++) col[i] = 1_700_000_000_000 + i * 10 + (i % 7);
    const bytes = encodeNumericColumn(col, col.length);
    assert.ok(bytes.length < col.length, `${bytes.length} bytes for ${col.length} values`);
    assert.deepEqual(decodeNumericColumn(bytes, col.length), col);
  });

  it('encodes a column of few distinct values by a dictionary', () => {
    const codes = [200, 201, 204, 301, 304, 400, 401, 403, 404, 500, 502, 503, 100000];
    const rnd = makeRandom(3);
    const col = new Float64Array(10_000).map((_, i) => (i % 10 === 0 ? NaN : codes[Math.floor(rnd() * codes.length)]!));
    const bytes = encodeNumericColumn(col, col.length);
    // 4 bits per value and a bitmap; packing the range 200..100000 would take 17 bits
    assert.ok(bytes.length < 10_000 * (4 / 8) + 10_000 / 8 + 400, `${bytes.length} bytes`);
    assert.deepEqual([...decodeNumericColumn(bytes, col.length)], [...col]);
  });

  it('round-trips ids by gaps, and ids that jump around raw', () => {
    const near = BigUint64Array.from([7_000_000_000_000_000_000n, 7_000_000_000_000_000_900n, 7_000_000_000_000_000_100n, 2n ** 64n - 1n]);
    assert.deepEqual(decodeIdColumn(encodeIdColumn(near, 3), 3), near.subarray(0, 3));
    assert.deepEqual(decodeIdColumn(encodeIdColumn(near, 4), 4), near);
    const carry = BigUint64Array.from([0xffff_ffffn, 0x1_0000_0005n, 0xffff_fff0n]);
    assert.deepEqual(decodeIdColumn(encodeIdColumn(carry, 3), 3), carry);
    assert.deepEqual(decodeIdColumn(encodeIdColumn(new BigUint64Array(0), 0), 0), new BigUint64Array(0));
  });

  it('codes generated ids as milliseconds and sequences (SPLIT), far smaller than gaps', () => {
    // 42 bits of milliseconds, a 22-bit sequence: ~50 ids per millisecond
    const ids = new BigUint64Array(20_000);
    for (let i = 0; i < ids.length; i++) ids[i] = (BigInt(1_000_000_000 + Math.floor(i / 50)) << 22n) | BigInt(i % 50);
    const bytes = encodeIdColumn(ids, ids.length);
    // the steps repeat exactly: the plane streams take a few bytes
    assert.equal(bytes[0], 3, 'SPLIT_PLANES kind');
    assert.ok(bytes.length < 200, `${bytes.length} bytes for ${ids.length} ids`);
    assert.deepEqual(decodeIdColumn(bytes, ids.length), ids);
    const back = ids.slice();
    back[7_000] = back[7_000]! - (5n << 22n);
    assert.deepEqual(decodeIdColumn(encodeIdColumn(back, back.length), back.length), back);
  });

  it('round-trips ids handed out in irregular bursts, in whichever SPLIT kind is smaller', () => {
    const rnd = makeRandom(77);
    const ids = new BigUint64Array(30_000);
    let ms = 2_000_000_000;
    let seq = 0;
    for (let i = 0; i < ids.length; i++) {
      if (rnd() < 0.03) {
        ms += 1 + Math.floor(rnd() * rnd() * 500);
        seq = 0;
      }
      ids[i] = (BigInt(ms) << 22n) | BigInt(seq++);
    }
    const bytes = encodeIdColumn(ids, ids.length);
    assert.ok(bytes[0] === 2 || bytes[0] === 3, `kind ${bytes[0]}`);
    assert.deepEqual(decodeIdColumn(bytes, ids.length), ids);
    assert.deepEqual(decodeIdColumn(encodeIdColumn(ids, 1), 1), ids.subarray(0, 1));
    assert.deepEqual(decodeIdColumn(encodeIdColumn(ids, 2), 2), ids.subarray(0, 2));
  });

  it('codes rising values by their steps above the smallest one (DELTA_FOR)', () => {
    const col = new Float64Array(5_000);
    for (let i = 0; i < col.length; i++) col[i] = 1_704_067_200_000 + i * 86 + ((i * 37) % 86);
    const bytes = encodeNumericColumn(col, col.length);
    assert.equal(bytes[0], 5, 'DELTA_FOR kind');
    assert.deepEqual(decodeNumericColumn(bytes, col.length), col);
  });

  it('codes skewed values as byte planes when that is smaller, and reads them back', () => {
    // mostly one value, a few others: bit packing pays 2 bits for each, the planes far fewer
    const rnd = makeRandom(9);
    const levels = (): number => {
      const x = rnd();
      return x < 0.9 ? 0 : x < 0.95 ? 1 : x < 0.98 ? 2 : 3;
    };
    const n = 20_000;
    const col = new Float64Array(n).map(() => [10, 20, 30, 40][levels()]!);
    col[5] = NaN;
    const numeric = encodeNumericColumn(col, n);
    assert.equal(numeric[1]! & 2, 2, 'plane stream flag');
    // the presence bitmap, then well under the 2 bits per value bit packing takes
    assert.ok(numeric.length < n / 8 + (n * 1.5) / 8, `${numeric.length} bytes for ${n} values`);
    assert.deepEqual([...decodeNumericColumn(numeric, n)], [...col]);
    // latencies: a long tail over a wide range (FOR)
    const latencies = new Float64Array(n).map(() => Math.floor(-Math.log(1 - rnd()) * 40) * (rnd() < 0.01 ? 30 : 1));
    const forBytes = encodeNumericColumn(latencies, n);
    assert.deepEqual([...decodeNumericColumn(forBytes, n)], [...latencies]);
    const ords = new Int32Array(n).map((_, i) => (i % 97 === 0 ? -1 : levels()));
    const column = { ords, terms: ['debug', 'error', 'info', 'warn'] };
    for (const shared of [false, true]) {
      const bytes = encodeOrdinalColumn(column, n, shared);
      assert.equal(bytes[0]! & 2, 2, 'plane stream flag');
      assert.ok(bytes.length < (n * 3) / 8 / 2, `${bytes.length} bytes for ${n} ordinals`);
      const back = decodeOrdinalColumn(bytes, n);
      assert.deepEqual(back.ords, ords);
      assert.deepEqual(back.terms, shared ? null : column.terms);
    }
  });

  it('keeps the packed stream for values without skew', () => {
    const n = 4_096;
    const rnd = makeRandom(4);
    const col = new Float64Array(n).map(() => Math.floor(rnd() * 1_024));
    const bytes = encodeNumericColumn(col, n);
    assert.equal(bytes[1]! & 2, 0, 'packed');
    assert.deepEqual(decodeNumericColumn(bytes, n), col);
  });

  it('finds the ordinals another keyword column fixes, and derives them from it', () => {
    const rnd = makeRandom(31);
    const n = 3_000;
    const hosts = { ords: new Int32Array(n), terms: ['a-1', 'a-2', 'b-1', 'c-1', 'c-2', 'c-3'] };
    const serviceOf = [0, 0, 1, 2, 2, -1];
    const services = new Int32Array(n);
    for (let d = 0; d < n; d++) {
      hosts.ords[d] = d % 41 === 0 ? -1 : Math.floor(rnd() * hosts.terms.length);
      services[d] = hosts.ords[d]! < 0 ? 1 : serviceOf[hosts.ords[d]!]!;
    }
    const fn = findOrdinalFunction(services, 'host', hosts, n)!;
    assert.equal(fn.missing, 1);
    assert.equal(fn.pairs.get('c-3'), -1);
    const bytes = encodeOrdinalColumn({ ords: services, terms: ['x', 'y', 'z'] }, n, false, fn);
    assert.ok(bytes.length < 100, `${bytes.length} bytes`);
    const decoded = decodeOrdinalColumn(bytes, n);
    assert.deepEqual(decoded.terms, ['x', 'y', 'z']);
    assert.deepEqual(applyOrdinalFunction(decoded.fn!, hosts, n), services);
    // brute force: a doc whose service differs from its host's breaks the function
    const broken = services.slice();
    broken[hosts.ords.indexOf(0)] = 2;
    assert.equal(findOrdinalFunction(broken, 'host', hosts, n), null);
    // a source term without a pair, or no source column, is corruption
    const partial = { ...decoded.fn!, pairs: new Map([...decoded.fn!.pairs].filter(([t]) => t !== 'b-1')) };
    assert.throws(() => applyOrdinalFunction(partial, hosts, n), FormatError);
    assert.throws(() => applyOrdinalFunction(decoded.fn!, null, n), FormatError);
  });

  it('round-trips ordinal columns with their own terms or the dictionary', () => {
    const column = { ords: Int32Array.from([2, -1, 0, 1, 2]), terms: ['a', 'é', '\ud83d\ude00'] };
    const own = decodeOrdinalColumn(encodeOrdinalColumn(column, 5, false), 5);
    assert.deepEqual(own.terms, column.terms);
    assert.deepEqual(own.ords, column.ords);
    const shared = decodeOrdinalColumn(encodeOrdinalColumn(column, 5, true), 5);
    assert.equal(shared.terms, null);
    assert.equal(shared.numTerms, 3);
    assert.deepEqual(shared.ords, column.ords);
  });
});

describe('term blocks', () => {
  it('round-trip front-coded terms, hex suffixes, single-doc entries and lone surrogates', () => {
    const terms = ['0a1b', '0a1c2d', 'abc', 'abcdef0123', 'naïve', 'x\ud800', 'zz'];
    const dict = new TermDictWriter(true);
    let offset = 1000;
    terms.forEach((t, i) => {
      if (i % 2 === 0) dict.addSingle(t, i * 3, Uint32Array.of(i, i + 4));
      else {
        dict.add(t, (i + 1) * 10, offset, 10 + i, i === 3 ? 1 : 0, 5, i % 2);
        offset += 15 + i;
      }
    });
    const index = dict.finish(0);
    assert.equal(index.numTerms, terms.length);
    const block = decodeTermBlock(dict.blocks.toBytes(), true, false, FORMAT_VERSION);
    assert.deepEqual(block.terms, terms);
    assert.deepEqual(inlineDocsOf(block, 2), Uint32Array.of(6));
    assert.deepEqual(inlinePostingsOf(block, 2), { docs: Uint32Array.of(6), offsets: Uint32Array.of(0, 2), positions: Uint32Array.of(2, 6) });
    assert.equal(inlineDocsOf(block, 1), null);
    assert.equal(block.blobOffset[1], 1000);
    assert.equal(block.blobOffset[3], 1016);
    assert.equal(block.docFreq[3], 40);
    assert.equal(block.docsLen[3], 13);
    assert.equal(block.posMode[3], 1);
    assert.equal(block.docsMode[3], 1);
    assert.equal(block.docsMode[1], 0);
  });
});

describe('term blocks with inline terms', () => {
  it('round-trip the packed docs and positions of terms held by a few docs at every width, beside blob terms', () => {
    const rnd = makeRandom(23);
    for (const maxDoc of [7, 8, 255, 256, 200_000, 2 ** 24 + 3, 2 ** 31 - 1]) {
      for (const hasPositions of [true, false]) {
        const dict = new TermDictWriter(hasPositions);
        const n = 300;
        const expected: Array<{ term: string; docs: number[]; positions: number[][] }> = [];
        let offset = 500;
        for (let i = 0; i < n; i++) {
          const term = `t${String(i).padStart(4, '0')}${Math.floor(rnd() * 1e6).toString(16)}`;
          if (i % 9 === 4) {
            dict.add(term, INLINE_MAX_DOCS + 1 + (i % 5), offset, 7, 0, hasPositions ? 5 : 0, 0);
            offset += hasPositions ? 12 : 7;
            expected.push({ term, docs: [], positions: [] });
            continue;
          }
          // 1 to INLINE_MAX_DOCS distinct docs, the largest doc now and then
          const count = 1 + Math.floor(rnd() * rnd() * INLINE_MAX_DOCS);
          const set = new Set<number>();
          if (i % 5 === 0) set.add(maxDoc);
          while (set.size < count) set.add(Math.floor(rnd() * (maxDoc + 1)));
          const docs = [...set].sort((x, y) => x - y);
          const positions = docs.map((_, k) => Array.from({ length: 1 + ((i + k) % 3) }, (_, j) => j * 4 + ((i + k) % 4)));
          const offsets = [0];
          for (const p of positions) offsets.push(offsets[offsets.length - 1]! + p.length);
          dict.addInline(term, Uint32Array.from(docs), hasPositions ? { offsets: Uint32Array.from(offsets), positions: Uint32Array.from(positions.flat()) } : null);
          expected.push({ term, docs, positions: hasPositions ? positions : [] });
        }
        const index = dict.finish(0);
        const bytes = dict.blocks.toBytes();
        for (let b = 0; b < index.offsets.length; b++) {
          const block = decodeTermBlock(bytes.subarray(index.offsets[b]!, index.offsets[b]! + index.lengths[b]!), hasPositions, false, FORMAT_VERSION);
          for (let i = 0; i < block.terms.length; i++) {
            const want = expected[b * 128 + i]!;
            assert.equal(block.terms[i], want.term);
            const docs = inlineDocsOf(block, i);
            assert.deepEqual(docs === null ? [] : [...docs], want.docs, `docs of ${want.term}, largest ${maxDoc}`);
            if (!hasPositions || want.docs.length === 0) continue;
            const p = inlinePostingsOf(block, i)!;
            assert.deepEqual([...p.docs], want.docs);
            const got = want.docs.map((_, k) => [...p.positions.subarray(p.offsets[k]!, p.offsets[k + 1]!)]);
            assert.deepEqual(got, want.positions);
          }
        }
      }
    }
  });

  it('refuses a blob for a term few enough docs to be inline, and unsorted inline docs', () => {
    const dict = new TermDictWriter(false);
    assert.throws(() => dict.addInline('a', Uint32Array.of(3, 3), null));
    assert.throws(() => dict.addInline('b', new Uint32Array(INLINE_MAX_DOCS + 1).map((_, i) => i), null));
    assert.throws(() => dict.add('c', INLINE_MAX_DOCS, 0, 4, 0, 0, 0));
  });

  it('reports trailing or missing packed docs as FormatError', () => {
    const dict = new TermDictWriter(false);
    for (let i = 0; i < 20; i++) dict.addSingle(`w${i}`, 1_000 + i, null);
    dict.finish(0);
    const stored = dict.blocks.toBytes();
    const raw = zlib.brotliDecompressSync(stored.subarray(1));
    const plain = (body: Uint8Array): Uint8Array => Uint8Array.of(0, ...body);
    assert.deepEqual(inlineDocsOf(decodeTermBlock(plain(raw), false, false, FORMAT_VERSION), 19), Uint32Array.of(1_019));
    assert.throws(() => decodeTermBlock(plain(Uint8Array.of(...raw, 0)), false, false, FORMAT_VERSION), FormatError);
    assert.throws(() => decodeTermBlock(plain(raw.subarray(0, raw.length - 2)), false, false, FORMAT_VERSION), FormatError);
  });
});

describe('checksum', () => {
  it('is the CRC-32 of src/common/crc32', () => {
    const rnd = makeRandom(1);
    const bytes = new Uint8Array(10_000).map(() => Math.floor(rnd() * 256));
    assert.equal(checksum(bytes), crc32(bytes));
    assert.equal(checksum(bytes.subarray(3, 77)), crc32(bytes, 3, 77));
  });

  it('native and portable CRC-32 agree, with ranges and running seeds', () => {
    const rnd = makeRandom(2);
    const bytes = new Uint8Array(5_000).map(() => Math.floor(rnd() * 256));
    assert.equal(crc32(bytes), crc32Portable(bytes));
    assert.equal(crc32(bytes, 10, 4_000), crc32Portable(bytes, 10, 4_000));
    const running = crc32(bytes, 2_000, 5_000, crc32(bytes, 0, 2_000));
    assert.equal(running, crc32(bytes));
    assert.equal(crc32Portable(bytes, 2_000, 5_000, crc32Portable(bytes, 0, 2_000)), crc32Portable(bytes));
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926, 'the standard check value');
  });
});
