import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { Memtable, POSITION_GAP, snapshotTransferables, type MemtableSnapshot } from '../../../src/engine/memtable/index.js';
import { dumpReader } from '../../support/dump-reader.js';
import type { IndexedDocument, IndexedField } from '../../../src/engine/document/index.js';

function doc(id: number, ts: number, fields: IndexedField[], lid = id): IndexedDocument {
  return { id: BigInt(id) * 1000n, lid, ts, source: JSON.stringify({ n: id, _ts: ts, _lid: lid }), fields };
}

// a small corpus whose every answer below is counted by hand
function corpus(): Memtable {
  const m = new Memtable('mem-1');
  m.add(
    doc(1, 5000, [
      { name: '_line', type: 'text', values: ['GET /index.html 200 ok ok'] },
      { name: 'host', type: 'keyword', values: ['web-2'] },
      { name: 'status', type: 'long', values: [200] },
      { name: 'ok', type: 'boolean', values: [true] },
    ]),
  );
  m.add(
    doc(2, 1000, [
      { name: '_line', type: 'text', values: ['post /login 500 error'] },
      { name: 'host', type: 'keyword', values: ['web-1', 'web-3'] },
      { name: 'status', type: 'long', values: [500] },
      { name: 'took', type: 'double', values: [1.5] },
      { name: 'ok', type: 'boolean', values: [false] },
    ]),
  );
  m.add(doc(3, 9000, [{ name: '_line', type: 'text', values: ['Error: GET failed', 'second value error'] }]));
  m.add(
    doc(4, 3000, [
      { name: 'host', type: 'keyword', values: ['web-1'] },
      { name: 'when', type: 'date', values: [1700000000000] },
      { name: 'empty', type: 'keyword', values: [] },
    ]),
  );
  return m;
}

test('counts, time bounds and lids', () => {
  const m = corpus();
  assert.equal(m.id, 'mem-1');
  assert.equal(m.numDocs, 4);
  assert.equal(m.minTs, 1000);
  assert.equal(m.maxTs, 9000);
  assert.equal(m.maxLid, 4);
  assert.ok(m.approxBytes > 0);
  assert.ok(m.createdAtMs <= Date.now());
});

test('an empty memtable', () => {
  const m = new Memtable('e');
  assert.equal(m.numDocs, 0);
  assert.equal(m.minTs, Infinity);
  assert.equal(m.maxTs, -Infinity);
  assert.equal(m.maxLid, 0);
  assert.deepEqual(m.fields(), []);
  assert.deepEqual([...m.terms('_line')], []);
  assert.equal(m.postings('_line', 'x'), null);
  assert.equal(m.exists('x').length, 0);
  assert.equal(m.ids().length, 0);
  assert.equal(m.numeric('_ts')!.length, 0);
  assert.throws(() => m.source(0), RangeError);
});

test('add returns dense doc ids in insertion order', () => {
  const m = new Memtable('x');
  assert.equal(m.add(doc(7, 1, [])), 0);
  assert.equal(m.add(doc(8, 1, [])), 1);
});

test('fields in first-occurrence order with types, skipping fields never given a value', () => {
  const m = corpus();
  assert.deepEqual(m.fields(), [
    { name: '_line', type: 'text' },
    { name: 'host', type: 'keyword' },
    { name: 'status', type: 'long' },
    { name: 'ok', type: 'boolean' },
    { name: 'took', type: 'double' },
    { name: 'when', type: 'date' },
  ]);
  assert.equal(m.fieldType('host'), 'keyword');
  assert.equal(m.fieldType('empty'), undefined);
  assert.equal(m.fieldType('nope'), undefined);
});

test('a field arriving with another type is refused, leaving no trace', () => {
  const m = corpus();
  assert.throws(() =>
    m.add(
      doc(9, 1, [
        { name: 'fresh', type: 'keyword', values: ['x'] },
        { name: 'status', type: 'keyword', values: ['x'] },
      ]),
    ),
  );
  assert.equal(m.numDocs, 4);
  assert.equal(m.ids().length, 4);
  assert.equal(m.fieldType('fresh'), undefined);
  assert.equal(m.minTs, 1000);
});

test('text terms are tokenized, sorted and seekable', () => {
  const m = corpus();
  assert.deepEqual(
    [...m.terms('_line')],
    ['200', '500', 'error', 'failed', 'get', 'html', 'index', 'login', 'ok', 'post', 'second', 'value'],
  );
  assert.deepEqual([...m.terms('_line', 'h')], ['html', 'index', 'login', 'ok', 'post', 'second', 'value']);
  assert.deepEqual([...m.terms('_line', 'index')], ['index', 'login', 'ok', 'post', 'second', 'value']);
  assert.deepEqual([...m.terms('_line', 'zzz')], []);
  assert.deepEqual([...m.terms('missing')], []);
});

test('postings and doc frequencies', () => {
  const m = corpus();
  assert.deepEqual([...m.postings('_line', 'get')!], [0, 2]);
  assert.deepEqual([...m.postings('_line', 'error')!], [1, 2]);
  assert.deepEqual([...m.postings('_line', 'ok')!], [0]);
  assert.equal(m.docFreq('_line', 'ok'), 1);
  assert.equal(m.docFreq('_line', 'error'), 2);
  assert.equal(m.docFreq('_line', 'nope'), 0);
  assert.equal(m.postings('_line', 'nope'), null);
  assert.equal(m.postings('_line', 'GET'), null, 'terms are stored lowercased');
  assert.deepEqual([...m.postings('host', 'web-1')!], [1, 3]);
  assert.deepEqual([...m.postings('host', 'web-3')!], [1]);
  assert.deepEqual([...m.terms('host')], ['web-1', 'web-2', 'web-3']);
  assert.equal(m.postings('status', '200'), null, 'numbers are columns, not terms');
});

test('positions: token index, duplicates, and a gap between values', () => {
  const m = corpus();
  const ok = m.positions('_line', 'ok')!;
  assert.deepEqual([...ok.docs], [0]);
  assert.deepEqual([...ok.offsets], [0, 2]);
  assert.deepEqual([...ok.positions], [4, 5]);
  const error = m.positions('_line', 'error')!;
  assert.deepEqual([...error.docs], [1, 2]);
  assert.deepEqual([...error.offsets], [0, 1, 3]);
  // doc 2: "error get failed" then, after the gap, "second value error"
  assert.deepEqual([...error.positions], [3, 0, 3 + POSITION_GAP + 2]);
  const get = m.positions('_line', 'get')!;
  assert.deepEqual([...get.positions.subarray(get.offsets[1]!, get.offsets[2]!)], [1]);
  assert.equal(m.positions('_line', 'nope'), null);
  assert.equal(m.positions('host', 'web-1'), null, 'keywords have no positions');
});

test('numeric columns hold the first value per doc, NaN elsewhere', () => {
  const m = corpus();
  assert.deepEqual([...m.numeric('status')!], [200, 500, NaN, NaN]);
  assert.deepEqual([...m.numeric('took')!], [NaN, 1.5, NaN, NaN]);
  assert.deepEqual([...m.numeric('when')!], [NaN, NaN, NaN, 1700000000000]);
  assert.deepEqual([...m.numeric('ok')!], [1, 0, NaN, NaN]);
  assert.deepEqual([...m.numeric('_ts')!], [5000, 1000, 9000, 3000]);
  assert.deepEqual([...m.numeric('_lid')!], [1, 2, 3, 4]);
  assert.equal(m.numeric('host'), null);
  assert.equal(m.numeric('_line'), null);
  assert.equal(m.numeric('missing'), null);
});

test('booleans are terms too', () => {
  const m = corpus();
  assert.deepEqual([...m.terms('ok')], ['false', 'true']);
  assert.deepEqual([...m.postings('ok', 'true')!], [0]);
  assert.deepEqual([...m.postings('ok', 'false')!], [1]);
});

test('ordinals of keyword fields', () => {
  const m = corpus();
  const o = m.ordinals('host')!;
  assert.deepEqual(o.terms, ['web-1', 'web-2', 'web-3']);
  assert.deepEqual([...o.ords], [1, 0, -1, 0]);
  assert.equal(m.ordinals('_line'), null);
  assert.equal(m.ordinals('status'), null);
  assert.equal(m.ordinals('missing'), null);
});

test('ordinals follow new terms and new docs', () => {
  const m = corpus();
  const before = m.ordinals('host')!;
  m.add(doc(5, 1, [{ name: 'host', type: 'keyword', values: ['web-0'] }]));
  const after = m.ordinals('host')!;
  assert.deepEqual(after.terms, ['web-0', 'web-1', 'web-2', 'web-3']);
  assert.deepEqual([...after.ords], [2, 1, -1, 1, 0]);
  m.add(doc(6, 1, [{ name: 'host', type: 'keyword', values: ['web-3'] }]));
  m.add(doc(7, 1, []));
  assert.deepEqual([...m.ordinals('host')!.ords], [2, 1, -1, 1, 0, 3, -1]);
  // the first answer is untouched
  assert.deepEqual(before.terms, ['web-1', 'web-2', 'web-3']);
  assert.deepEqual([...before.ords], [1, 0, -1, 0]);
});

test('exists lists docs with at least one value', () => {
  const m = corpus();
  assert.deepEqual([...m.exists('_line')], [0, 1, 2]);
  assert.deepEqual([...m.exists('host')], [0, 1, 3]);
  assert.deepEqual([...m.exists('status')], [0, 1]);
  assert.deepEqual([...m.exists('empty')], []);
  assert.deepEqual([...m.exists('missing')], []);
});

test('ids and sources', () => {
  const m = corpus();
  assert.deepEqual([...m.ids()], [1000n, 2000n, 3000n, 4000n]);
  assert.deepEqual(JSON.parse(m.source(2)), { n: 3, _ts: 9000, _lid: 3 });
  assert.throws(() => m.source(4), RangeError);
});

test('views taken earlier keep what they saw while writes go on', () => {
  const m = new Memtable('s');
  m.add(doc(1, 1, [{ name: '_line', type: 'text', values: ['a b a'] }, { name: 'n', type: 'long', values: [1] }]));
  const post = m.postings('_line', 'a')!;
  const pos = m.positions('_line', 'a')!;
  const num = m.numeric('n')!;
  const ids = m.ids();
  for (let i = 2; i < 5000; i++) {
    m.add(doc(i, i, [{ name: '_line', type: 'text', values: [`a x${i} a b`] }, { name: 'n', type: 'long', values: [i] }]));
  }
  assert.deepEqual([...post], [0]);
  assert.deepEqual([...pos.offsets], [0, 2]);
  assert.deepEqual([...pos.positions], [0, 2]);
  assert.deepEqual([...num], [1]);
  assert.deepEqual([...ids], [1000n]);
  const all = m.positions('_line', 'a')!;
  assert.equal(all.docs.length, 4999);
  assert.equal(all.offsets.length, 5000);
  for (let i = 0; i < all.docs.length; i++) {
    assert.equal(all.docs[i], i);
    const p = [...all.positions.subarray(all.offsets[i]!, all.offsets[i + 1]!)];
    assert.deepEqual(p, [0, 2]);
  }
  assert.deepEqual([...m.postings('_line', 'x4000')!], [3999]);
  assert.equal(m.numeric('n')![4998], 4999);
});

test('many terms and long posting lists survive arena growth', () => {
  const m = new Memtable('big');
  const n = 20000;
  for (let i = 0; i < n; i++) {
    const words = [`w${i % 7}`, `u${i}`, `m${i % 101}`, 'common'];
    m.add(doc(i + 1, i, [{ name: '_line', type: 'text', values: [words.join(' ')] }, { name: 'k', type: 'keyword', values: [`k${i % 13}`] }]));
  }
  assert.equal(m.docFreq('_line', 'common'), n);
  assert.equal(m.docFreq('_line', 'u12345'), 1);
  assert.deepEqual([...m.postings('_line', 'u12345')!], [12345]);
  const w3 = m.postings('_line', 'w3')!;
  assert.equal(w3.length, Math.ceil((n - 3) / 7));
  for (let j = 0; j < w3.length; j++) assert.equal(w3[j], 3 + 7 * j);
  const m5 = m.positions('_line', 'm5')!;
  for (let j = 0; j < m5.docs.length; j++) {
    assert.equal(m5.docs[j], 5 + 101 * j);
    assert.equal(m5.offsets[j + 1]! - m5.offsets[j]!, 1);
    assert.equal(m5.positions[j], 2);
  }
  assert.equal([...m.terms('_line')].length, 7 + n + 101 + 1);
  const ords = m.ordinals('k')!;
  for (let i = 0; i < n; i++) assert.equal(ords.terms[ords.ords[i]!], `k${i % 13}`);
});

test('long terms are kept whole as keys', () => {
  const m = new Memtable('l');
  const long = 'abcdefghijklmnopqrstuvwxyz0123456789';
  m.add(doc(1, 1, [{ name: '_line', type: 'text', values: [`x ${long.toUpperCase()} y`] }]));
  assert.deepEqual([...m.terms('_line')], [long, 'x', 'y']);
  assert.deepEqual([...m.postings('_line', long)!], [0]);
});

test('sources come back exactly, across chunks, large and non-ASCII', () => {
  const m = new Memtable('src');
  const sources: string[] = [];
  const big = JSON.stringify({ _line: 'é'.repeat(700_000) + '😀' });
  for (let i = 0; i < 12000; i++) {
    let s: string;
    if (i === 5000) s = big;
    else if (i % 3 === 0) s = JSON.stringify({ n: i, text: `日本語 ${i} Ünïcödé \u2028 ${'x'.repeat(i % 300)}` });
    else if (i === 7) s = '';
    else s = JSON.stringify({ n: i, pad: 'y'.repeat(i % 500) });
    sources.push(s);
    m.add({ id: BigInt(i), lid: i + 1, ts: i, source: s, fields: [] });
  }
  for (let i = 0; i < sources.length; i++) assert.equal(m.source(i), sources[i]);
  assert.throws(() => m.source(-1), RangeError);
  assert.throws(() => m.source(1.5), RangeError);
  assert.ok(m.approxBytes > big.length * 2, 'the large source counts in the estimate');
});

test('a snapshot moved to another thread is searchable there as the same memtable', async () => {
  const m = corpus();
  const { port1, port2 } = new MessageChannel();
  const arrived = new Promise<MemtableSnapshot>((resolve) => port2.once('message', resolve));
  const snapshot = m.snapshot();
  port1.postMessage(snapshot, snapshotTransferables(snapshot));
  const restored = new Memtable(m.id, await arrived);
  port1.close();
  assert.deepEqual(dumpReader(restored), dumpReader(m));
  // the original keeps taking writes after the snapshot, which the copy does not see
  m.add(doc(5, 7000, [{ name: '_line', type: 'text', values: ['later'] }]));
  assert.equal(m.numDocs, 5);
  assert.equal(restored.numDocs, 4);
  assert.equal(restored.postings('_line', 'later'), null);
});

test('postings asked while walking the terms are those of the term walked, also after new terms arrive', () => {
  const m = corpus();
  const walked = new Map<string, number[]>();
  for (const term of m.terms('_line')) {
    // a new term mid-walk gives the field a new sorted list; the walk's term must still be found
    if (term === 'error') {
      m.add(doc(9, 9500, [{ name: '_line', type: 'text', values: ['aardvark error'] }]));
      assert.deepEqual([...m.terms('_line', '~')], []); // sorts the field's terms again, yields none
    }
    walked.set(term, [...m.postings('_line', term)!]);
  }
  // looked up again away from the walk (in reverse, so never at the walk's last position)
  for (const term of [...walked.keys()].reverse().slice(1)) assert.deepEqual(walked.get(term), [...m.postings('_line', term)!], term);
  assert.deepEqual(walked.get('error'), [1, 2, 4]);
  assert.deepEqual([...m.postings('_line', 'aardvark')!], [4]);
});
