import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocument } from '../../../src/engine/document/index.js';
import { IndexMapping } from '../../../src/engine/mapping/index.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import type { SegmentReader } from '../../../src/engine/segment-reader.js';

const RAW: unknown[] = [
  { _line: 'User alice logged in from 10.0.0.1', user: 'alice', status: 200, latency: 0.25, ok: true, _ts: 3000 },
  { _line: 'user BOB failed: bad password', user: 'bob', status: '401', ok: 'false', tags: ['auth', 'fail'] },
  { _line: 'Alice logged out', user: 'alice', http: { method: 'POST' }, _ts: '1970-01-01T00:00:01Z' },
];

function load(mapping: IndexMapping, sources?: string[]): Memtable {
  const m = new Memtable('seg');
  RAW.forEach((raw, i) => {
    const identity = { id: BigInt(100 + i), lid: i + 1 };
    const input = sources === undefined ? raw : JSON.parse(sources[i]!);
    m.add(buildDocument(input, mapping, identity, 2000));
  });
  return m;
}

function snapshot(r: SegmentReader): unknown {
  const fields = r.fields();
  return {
    numDocs: r.numDocs,
    minTs: r.minTs,
    maxTs: r.maxTs,
    maxLid: r.maxLid,
    fields,
    ids: [...r.ids()],
    ts: [...r.numeric('_ts')!],
    sources: Array.from({ length: r.numDocs }, (_, d) => r.source(d)),
    perField: fields.map((f) => ({
      terms: [...r.terms(f.name)].map((t) => [t, [...(r.postings(f.name, t) ?? [])], r.docFreq(f.name, t)]),
      numeric: r.numeric(f.name) && [...r.numeric(f.name)!],
      ords: r.ordinals(f.name) && [...r.ordinals(f.name)!.ords],
      exists: [...r.exists(f.name)],
    })),
  };
}

test('documents built from raw writes are searchable in the memtable', () => {
  const m = load(new IndexMapping());
  assert.equal(m.numDocs, 3);
  assert.equal(m.minTs, 1000);
  assert.equal(m.maxTs, 3000);
  assert.equal(m.maxLid, 3);
  assert.deepEqual([...m.postings('_line', 'alice')!], [0, 2]);
  assert.deepEqual([...m.postings('_line', 'user')!], [0, 1]);
  assert.deepEqual([...m.postings('user', 'alice')!], [0, 2]);
  assert.equal(m.postings('user', 'Alice'), null, 'keywords match whole and exact');
  assert.deepEqual([...m.numeric('status')!], [200, 401, NaN]);
  assert.deepEqual([...m.numeric('ok')!], [1, 0, NaN]);
  assert.deepEqual([...m.postings('tags', 'fail')!], [1]);
  assert.deepEqual([...m.postings('http.method', 'POST')!], [2]);
  assert.deepEqual([...m.numeric('_ts')!], [3000, 2000, 1000]);
  const logged = m.positions('_line', 'logged')!;
  assert.deepEqual([...logged.docs], [0, 2]);
  assert.deepEqual([...logged.positions], [2, 1]);
  assert.deepEqual(JSON.parse(m.source(1)), {
    _line: 'user BOB failed: bad password',
    user: 'bob',
    status: '401',
    ok: 'false',
    tags: ['auth', 'fail'],
    _ts: 2000,
    _lid: 2,
  });
});

test('replaying stored sources rebuilds an identical memtable', () => {
  const first = load(new IndexMapping());
  const sources = Array.from({ length: first.numDocs }, (_, d) => first.source(d));
  const replayed = load(new IndexMapping(), sources);
  assert.deepEqual(snapshot(replayed), snapshot(first));
});
