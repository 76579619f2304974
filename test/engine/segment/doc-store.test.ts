import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OrdinalColumn } from '../../../src/engine/segment-reader.js';
import { FormatError } from '../../../src/engine/segment/byte-reader.js';
import { ColumnDocBlock } from '../../../src/engine/segment/doc-block-decoder.js';
import { DocBlockEncoder, type WrittenColumns } from '../../../src/engine/segment/doc-block-encoder.js';
import type { SourceColumns } from '../../../src/engine/segment/doc-block.js';
import { TextDocBlock, TextDocBlockEncoder } from '../../../src/engine/segment/doc-block-text.js';
import {
  SLOT_INT,
  SLOT_LITERAL,
  SLOT_NUMBER_TEXT,
  SLOT_STRING,
  SourceScanner,
} from '../../../src/engine/segment/source-scanner.js';
import { awkwardDocs, wideSource } from './awkward-sources.js';
import { generateLogs, makeRandom } from './log-corpus.js';

const NO_COLUMNS: WrittenColumns & SourceColumns = {
  numeric: () => null,
  keyword: () => null,
  ordinals: () => null,
};

/** Columns of a few fields, as both the writer and the reader see them. */
function columnsOf(numeric: Record<string, Float64Array>, keyword: Record<string, OrdinalColumn>): WrittenColumns & SourceColumns {
  return {
    numeric: (field) => numeric[field] ?? null,
    keyword: (field) => keyword[field] ?? null,
    ordinals: (field) => keyword[field] ?? null,
  };
}

/** Encodes `texts` as one block and decodes it again. */
function roundTrip(texts: readonly string[], columns: WrittenColumns & SourceColumns = NO_COLUMNS): { raw: Buffer; bytes: number } {
  const encoder = new DocBlockEncoder(columns);
  texts.forEach((t, i) => encoder.add(t, i));
  const raw = Buffer.from(encoder.finish());
  const block = new ColumnDocBlock(raw, texts.length);
  for (let i = 0; i < texts.length; i++) {
    const got = block.text(i, i, columns);
    if (got !== texts[i]) assert.equal(got, texts[i], `text of doc ${i}`);
  }
  return { raw, bytes: raw.length };
}

describe('source scanner', () => {
  it('splits a flat object into pieces and values without touching escapes', () => {
    const s = new SourceScanner();
    const text = '{"_line":"a \\"b\\" 12","n":-42,"d":1.5,"ok":true,"z":null}';
    assert.ok(s.scan(text));
    assert.equal(s.slotCount, 5);
    assert.deepEqual([...s.slotKind.subarray(0, 5)], [SLOT_STRING, SLOT_INT, SLOT_NUMBER_TEXT, SLOT_LITERAL, SLOT_LITERAL]);
    assert.equal(text.slice(s.valueStart[0]!, s.valueEnd[0]!), 'a \\"b\\" 12');
    assert.equal(s.valueNumber[1], -42);
    assert.equal(s.piece(0), '{"_line":"');
    assert.equal(s.piece(5), '}');
    assert.equal(s.shape(), '{"_line":"\u0001","n":\u0002,"d":\u0003,"ok":\u0004,"z":\u0004}');
  });

  it('takes canonical integers only as integers', () => {
    const s = new SourceScanner();
    const kinds = (value: string): number => {
      assert.ok(s.scan(`{"a":${value}}`), value);
      return s.slotKind[0]!;
    };
    for (const v of ['0', '-1', '123456789012345']) assert.equal(kinds(v), SLOT_INT, v);
    for (const v of ['-0', '01', '1.0', '1e3', '1E+3', '1234567890123456', '9007199254740993', '-']) assert.equal(kinds(v), SLOT_NUMBER_TEXT, v);
  });

  it('refuses nested values, arrays, raw line feeds in strings and texts that are not one object', () => {
    const s = new SourceScanner();
    for (const text of ['{"a":{"b":1}}', '{"a":[1]}', '{"a":"x\ny"}', '{"a":1}}', '{"a":1,}', 'x', '', '{"a":"x', '{"\u0001":1}']) {
      assert.equal(s.scan(text), false, JSON.stringify(text));
    }
    for (const text of ['{}', ' { } ', '{\n"a" : 1 ,\t"b":"\\n"\r\n}']) assert.ok(s.scan(text), JSON.stringify(text));
  });
});

describe('column-wise doc blocks', () => {
  it('give back awkward sources byte for byte', () => {
    const texts = awkwardDocs().map((d) => d.source);
    roundTrip(texts);
    // the same with a lone surrogate in the block (UTF-16) and without one (UTF-8)
    roundTrip(texts.filter((t) => !t.includes('\ud800')));
  });

  it('give back generated logs, wide objects and many distinct values', () => {
    const logs = generateLogs(3_000, { seed: 5, rich: true }).map((d) => d.source);
    roundTrip(logs);
    roundTrip(Array.from({ length: 40 }, (_, i) => wideSource(i, 1000 + i, i + 1)));
    // more than 256 distinct values of a low-cardinality-looking key: wide dictionary indexes
    const rnd = makeRandom(3);
    roundTrip(Array.from({ length: 4_000 }, () => `{"k":"v${Math.floor(rnd() * 600)}","n":${Math.floor(rnd() * 10)}}`));
  });

  it('take numbers and hex tokens out of free text and put them back', () => {
    const lines = [
      'GET /api/v1/users/12345 200 5120 in 12ms',
      '10.0.0.1 - - [01/Jan/2024:00:00:01 +0000] 007 0 00 1234567890123456789',
      'trace 3fa9c0d1e2b3a4f5 span deadbeefcafebabe1234 odd abcdef012 upper 3FA9C0D1E2B3A4F5',
      'short cafe1234 long 0123456789abcdef0123456789abcdef0123 glued x3fa9c0d1e2b3a4f5 3fa9c0d1e2b3a4f5y',
      'ünïcödé 42 日本 7 😀 99 é1',
      'nothing to take',
      '',
      'v1.2.3 1.5e-7 -3 +4 12a 0x1f',
    ];
    const texts = lines.map((l, i) => `{"_line":${JSON.stringify(l)},"_lid":${i}}`);
    roundTrip(texts);
    roundTrip([...texts, '{"_line":"lone \ud800 42 3fa9c0d1e2b3a4f5"}']);
    // a value holding a mark character keeps the plain text coding
    roundTrip([...texts, '{"_line":"mark \u0001 1 \u0002 2"}']);
  });

  it('store values the columns hold as nothing, and fail when a column lacks the value', () => {
    const n = 2_000;
    const rnd = makeRandom(9);
    const ts = new Float64Array(n);
    const lid = new Float64Array(n);
    const latency = new Float64Array(n);
    const hosts = ['api-1', 'api-2', 'web-1'];
    const ords = new Int32Array(n);
    const texts: string[] = [];
    for (let i = 0; i < n; i++) {
      ts[i] = 1_704_067_200_000 + i * 40 + Math.floor(rnd() * 40);
      lid[i] = i + 1;
      latency[i] = i % 7 === 0 ? 1.25 : Math.floor(rnd() * 900);
      ords[i] = Math.floor(rnd() * hosts.length);
      texts.push(`{"_line":"line ${i}","_ts":${ts[i]},"host":"${hosts[ords[i]!]}","latency_ms":${latency[i]},"_lid":${lid[i]}}`);
    }
    const host: OrdinalColumn = { ords, terms: hosts };
    const columns = columnsOf({ _ts: ts, _lid: lid, latency_ms: latency }, { host });
    const withColumns = roundTrip(texts, columns);
    const without = roundTrip(texts);
    assert.ok(withColumns.bytes < without.bytes - n * 4, `${withColumns.bytes} bytes with columns, ${without.bytes} without`);
    // a reader whose column lacks a value the block leaves out reports damage
    const missing = columnsOf({ _ts: ts, _lid: lid, latency_ms: new Float64Array(n).fill(NaN) }, { host });
    // (a block keeps the columns it was given first: a fresh decode for each reader)
    assert.throws(() => new ColumnDocBlock(withColumns.raw, n).text(1, 1, missing), FormatError);
    assert.throws(() => new ColumnDocBlock(withColumns.raw, n).text(1, 1, NO_COLUMNS), FormatError);
  });

  it('keep a value that differs from its column, or from its canonical text', () => {
    const ts = Float64Array.of(1000, 1001, 1002, -0);
    const texts = ['{"_ts":1000}', '{"_ts":999}', '{"_ts":1002.0}', '{"_ts":-0}'];
    roundTrip(texts, columnsOf({ _ts: ts }, {}));
  });

  it('report structural damage as FormatError, never as another error', () => {
    const texts = generateLogs(300, { seed: 8 }).map((d) => d.source);
    const encoder = new DocBlockEncoder(NO_COLUMNS);
    texts.forEach((t, i) => encoder.add(t, i));
    const raw = Buffer.from(encoder.finish());
    assert.throws(() => new ColumnDocBlock(raw, texts.length + 1), FormatError);
    assert.throws(() => new ColumnDocBlock(raw.subarray(0, raw.length - 1), texts.length), FormatError);
    let detected = 0;
    const rnd = makeRandom(4);
    for (let k = 0; k < 200; k++) {
      const damaged = Buffer.from(raw);
      const at = Math.floor(rnd() * Math.min(damaged.length, 4_000));
      damaged[at] = damaged[at]! ^ (1 + Math.floor(rnd() * 255));
      try {
        const block = new ColumnDocBlock(damaged, texts.length);
        for (let i = 0; i < texts.length; i++) block.text(i, i, NO_COLUMNS);
      } catch (err) {
        assert.ok(err instanceof FormatError, `expected FormatError, got ${String(err)}`);
        detected++;
      }
    }
    // the block's checksum catches the rest; the structure alone catches many
    assert.ok(detected > 20, `structure checks caught ${detected} of 200 damaged blocks`);
  });
});

describe('text doc blocks', () => {
  /** Encodes UTF-8 sources (with their `_ts` and `_lid`) as one text block and reads each back. */
  function textRoundTrip(docs: ReadonlyArray<[string, number, number]>): Buffer {
    const encoder = new TextDocBlockEncoder();
    for (const [text, ts, lid] of docs) {
      const bytes = Buffer.from(text, 'utf8');
      encoder.add(bytes, 0, bytes.length, ts, lid);
    }
    const raw = encoder.finish();
    assert.equal(encoder.count, 0, 'finish starts the next block');
    const ts = Float64Array.from(docs.map((d) => d[1]));
    const lid = Float64Array.from(docs.map((d) => d[2]));
    const columns: SourceColumns = { numeric: (f) => (f === '_ts' ? ts : f === '_lid' ? lid : null), ordinals: () => null };
    const block = new TextDocBlock(raw, docs.length);
    docs.forEach(([text], i) => assert.equal(block.text(i, i, columns), text, `text of doc ${i}`));
    return raw;
  }

  it('leave out a `_ts` and `_lid` suffix equal to the columns, and keep every other text whole', () => {
    const docs: Array<[string, number, number]> = [
      ['{"_line":"a b","_ts":1704067201642,"_lid":1}', 1704067201642, 1],
      ['{"_line":"c","_lid":20}', 5, 20],
      ['{"_line":"ts differs","_ts":7,"_lid":3}', 8, 3],
      ['{"_line":"lid differs","_lid":4}', 0, 5],
      ['{"_line":"identity after","_lid":6,"_id":"x","_version":2}', 0, 6],
      ['{"_line":"fraction","_ts":1.5,"_lid":7}', 1.5, 7],
      ['{"_line":"big","_ts":1704067201642,"_lid":9007199254740991}', 1704067201642, 9007199254740991],
      ['{"_line":"Ünïcödé 日本語 😀","_ts":10,"_lid":8}', 10, 8],
      ['{"_line":"prefix of lid","_lid":123}', 0, 23],
      ['{"_lid":9}', 0, 9],
      ['{}', 0, 10],
      ['}', 0, 11],
    ];
    const raw = textRoundTrip(docs).toString('utf8');
    for (const gone of ['1704067201642', '"_lid":20', '"_lid":3', '"_ts":1.5', '"_lid":8']) assert.ok(!raw.includes(gone), `${gone} left out`);
    for (const kept of ['"_ts":7}', '"_lid":4}', '"_lid":6,"_id"', '"_lid":123}', '{"_lid":9}']) assert.ok(raw.includes(kept), `${kept} kept`);
  });

  it('give back generated logs and awkward sources byte for byte', () => {
    const docs = generateLogs(2_000, { seed: 5, rich: true }).map((d): [string, number, number] => [d.source, d.ts, d.lid]);
    const awkward = awkwardDocs()
      .filter((d) => Buffer.from(d.source, 'utf8').toString('utf8') === d.source)
      .map((d): [string, number, number] => [d.source, d.ts, d.lid]);
    assert.ok(awkward.length > 5);
    const raw = textRoundTrip([...awkward, ...docs]);
    assert.ok(raw.length < docs.reduce((n, d) => n + Buffer.byteLength(d[0]), 0), 'suffixes left out');
  });
});
