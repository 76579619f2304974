/**
 * Test helper: asserts that two SegmentReaders answer every method alike.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decodeFooter, decodeTrailer, TRAILER_BYTES } from '../../../src/engine/segment/footer.js';
import type { SegmentReader } from '../../../src/engine/segment-reader.js';

function bytesOf(a: ArrayBufferView): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Typed arrays equal in type, length and content (NaN equal to NaN). */
export function assertSameArray(actual: ArrayBufferView | null, expected: ArrayBufferView | null, what: string): void {
  if (actual === null || expected === null) {
    assert.equal(actual, expected, what);
    return;
  }
  assert.equal(actual.constructor.name, expected.constructor.name, `${what}: array type`);
  if (!bytesOf(actual).equals(bytesOf(expected))) {
    const a = Array.from(actual as unknown as ArrayLike<number | bigint>);
    const e = Array.from(expected as unknown as ArrayLike<number | bigint>);
    assert.deepStrictEqual(a, e, what);
    // same numbers with different bytes: NaN payloads; fine
  }
}

function assertSameNumbers(actual: Float64Array | null, expected: Float64Array | null, what: string): void {
  if (actual === null || expected === null) {
    assert.equal(actual, expected, what);
    return;
  }
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) {
    if (!Object.is(actual[i], expected[i])) assert.fail(`${what}: doc ${i} is ${actual[i]}, expected ${expected[i]}`);
  }
}

/** Probe strings for `terms(field, from)`: each term, just after it, and the edges. */
function fromProbes(terms: readonly string[], limit: number): string[] {
  const probes = ['', '\u0000', '\uffff\uffff'];
  const step = Math.max(1, Math.floor(terms.length / limit));
  for (let i = 0; i < terms.length; i += step) {
    const t = terms[i]!;
    probes.push(t, `${t}\u0000`, t.slice(0, Math.max(0, t.length - 1)));
  }
  return probes;
}

function take<T>(it: Iterable<T>, n: number): T[] {
  const out: T[] = [];
  if (n <= 0) return out;
  for (const x of it) {
    out.push(x);
    if (out.length >= n) break;
  }
  return out;
}

/** Offsets counted from the first one. */
function relative(offsets: Uint32Array): Uint32Array {
  const first = offsets[0]!;
  return offsets.map((o) => o - first);
}

export interface CompareOptions {
  /** check terms(field, from) at up to this many points per field */
  fromProbes?: number;
}

export function assertSameSegment(actual: SegmentReader, expected: SegmentReader, options: CompareOptions = {}): void {
  assert.equal(actual.numDocs, expected.numDocs, 'numDocs');
  assert.equal(actual.minTs, expected.minTs, 'minTs');
  assert.equal(actual.maxTs, expected.maxTs, 'maxTs');
  assert.equal(actual.maxLid, expected.maxLid, 'maxLid');
  assert.deepStrictEqual(actual.fields(), expected.fields(), 'fields');
  assertSameArray(actual.ids(), expected.ids(), 'ids');
  for (const col of ['_ts', '_lid']) assertSameNumbers(actual.numeric(col), expected.numeric(col), col);
  for (let d = 0; d < expected.numDocs; d++) {
    const s = expected.source(d);
    if (actual.source(d) !== s) assert.equal(actual.source(d), s, `source of doc ${d}`);
  }
  for (const { name, type } of expected.fields()) {
    assert.equal(actual.fieldType(name), type, `type of ${name}`);
    const terms = Array.from(expected.terms(name));
    assert.deepStrictEqual(Array.from(actual.terms(name)), terms, `terms of ${name}`);
    for (const from of fromProbes(terms, options.fromProbes ?? 50)) {
      // enough terms to cross a dictionary block boundary
      assert.deepStrictEqual(take(actual.terms(name, from), 300), take(expected.terms(name, from), 300), `terms of ${name} from ${JSON.stringify(from)}`);
    }
    for (const term of terms) {
      const what = `${name}:${JSON.stringify(term)}`;
      assert.equal(actual.docFreq(name, term), expected.docFreq(name, term), `docFreq ${what}`);
      assertSameArray(actual.postings(name, term), expected.postings(name, term), `postings ${what}`);
      const ep = expected.positions(name, term);
      const ap = actual.positions(name, term);
      if (ep === null || ap === null) {
        assert.equal(ap, ep, `positions ${what}`);
      } else {
        assertSameArray(ap.docs, ep.docs, `positions docs ${what}`);
        assert.equal(ap.offsets.length, ep.docs.length + 1, `positions offsets ${what}`);
        const n = ep.docs.length;
        assertSameArray(relative(ap.offsets), relative(ep.offsets), `positions offsets ${what}`);
        assertSameArray(
          ap.positions.subarray(ap.offsets[0]!, ap.offsets[n]!),
          ep.positions.subarray(ep.offsets[0]!, ep.offsets[n]!),
          `positions ${what}`,
        );
      }
    }
    for (const absent of ['\u0000absent', 'zzzz-not-a-term']) {
      assert.equal(actual.docFreq(name, absent), expected.docFreq(name, absent), `docFreq of absent term in ${name}`);
      assert.equal(actual.postings(name, absent), expected.postings(name, absent), `postings of absent term in ${name}`);
      assert.equal(actual.positions(name, absent), expected.positions(name, absent), `positions of absent term in ${name}`);
    }
    assertSameNumbers(actual.numeric(name), expected.numeric(name), `numeric ${name}`);
    const eo = expected.ordinals(name);
    const ao = actual.ordinals(name);
    if (eo === null || ao === null) {
      assert.equal(ao, eo, `ordinals ${name}`);
    } else {
      assert.deepStrictEqual([...ao.terms], [...eo.terms], `ordinal terms ${name}`);
      assertSameArray(ao.ords, eo.ords, `ords ${name}`);
    }
    assertSameArray(actual.exists(name), expected.exists(name), `exists ${name}`);
  }
  const unknown = 'no.such.field';
  assert.equal(actual.fieldType(unknown), undefined);
  assert.deepStrictEqual(Array.from(actual.terms(unknown)), []);
  assert.equal(actual.docFreq(unknown, 'x'), 0);
  assert.equal(actual.postings(unknown, 'x'), null);
  assert.equal(actual.positions(unknown, 'x'), null);
  assert.equal(actual.numeric(unknown), null);
  assert.equal(actual.ordinals(unknown), null);
  assert.equal(actual.exists(unknown).length, 0);
}

/** The layout byte of each doc-store block of a format-4 file (1 text, 2 columns) and the doc store's bytes. */
export function docStoreOf(file: string): { layouts: number[]; bytes: number } {
  const bytes = fs.readFileSync(file);
  const trailer = decodeTrailer(bytes.subarray(bytes.length - TRAILER_BYTES));
  assert.equal(trailer.version, 4);
  const footer = decodeFooter(bytes.subarray(bytes.length - TRAILER_BYTES - trailer.footerLength, bytes.length - TRAILER_BYTES), bytes.length, trailer.version);
  const offsets = [...footer.docStore.offsets];
  return { layouts: offsets.slice(0, -1).map((o) => bytes[o]!), bytes: offsets.at(-1)! - offsets[0]! };
}
