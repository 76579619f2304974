import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDocument, parseDocumentText } from '../../../src/engine/document/index.js';
import { IndexMapping } from '../../../src/engine/mapping/index.js';
import { Memtable } from '../../../src/engine/memtable/index.js';
import { DocumentScanner, FieldSlots, ShardWriteBatch, type ScannedDocument } from '../../../src/engine/ingest/index.js';
import { dumpReader } from '../../support/dump-reader.js';

const RECEIVED_TS = 1_700_000_000_123;

/** A mapping as the general path leaves it after a first document with these fields. */
function seededMapping(): IndexMapping {
  const mapping = new IndexMapping();
  buildDocument(
    { _line: 'seed', host: 'h', n: 1, x: 1.5, ok: true, _ts: 1 },
    mapping,
    { id: 1n, lid: 1 },
    RECEIVED_TS,
  );
  mapping.declare('when', 'date');
  return mapping;
}

function scanOne(line: string, mapping = seededMapping()): boolean {
  const slots = new FieldSlots(mapping);
  const bytes = Buffer.from(line);
  const batch = new ShardWriteBatch(bytes, slots.list, 1);
  const doc: ScannedDocument = { ts: NaN, keepEnd: 0 };
  return new DocumentScanner(slots).scan(bytes, 0, bytes.length, batch.values, doc);
}

test('the scanner takes flat documents of mapped fields whose values fit as they are', () => {
  for (const line of [
    '{"_line":"GET /index.html 200","host":"web-1","n":42,"x":0.25,"ok":false}',
    '  { "_line" : "a\\"b\\\\c\\nd\\/e" , "n" : -7 , "x" : 1e3 , "when" : 1700000000000 }  ',
    '{"_line":"x","_ts":1700000000000}',
    '{"_line":"x","host":null,"n":null}',
  ]) {
    assert.equal(scanOne(line), true, line);
  }
});

test('the scanner leaves everything else to the general path', () => {
  for (const line of [
    '{}',
    '{"_line":"x","new_field":"y"}', // not mapped yet
    '{"_line":"x","user":{"name":"n"}}', // nested object
    '{"_line":"x","host":["a","b"]}', // array
    '{"_line":"caf\u00e9"}', // non-ASCII text
    '{"_line":"\\u0041b"}', // \u escape
    '{"_line":"x","host":"a\\"b"}', // escaped keyword
    '{"_line":"x","host":5}', // number in a keyword field: coerced to a string
    '{"_line":"x","n":"5"}', // string in a long field
    '{"_line":"x","n":1.5}', // fraction in a long field: truncated
    '{"_line":"x","n":1234567890123456}', // 16 digits
    '{"_line":"x","n":-0}',
    '{"_line":"x","x":1e400}', // not finite
    '{"_line":"x","ok":"true"}',
    '{"_line":"x","_ts":"2024-01-01T00:00:00Z"}',
    '{"_line":"x","_ts":1.5}',
    '{"_line":"x","_ts":null}',
    '{"_line":"x","_lid":3}',
    '{"_line":"x","_id":"mine"}',
    '{"_line":"x","_line":"y"}', // duplicate key
    '{"_line":"x",}', // invalid JSON
    '{"_line":"x"} trailing',
    '{"_line":"x"',
    '{"_line":01}',
    '{"_line":"tab\there"}', // raw control character
    '[1,2]',
  ]) {
    assert.equal(scanOne(line), false, line);
  }
});

test('without a first document through the general path the fast path stays off', () => {
  assert.equal(new FieldSlots(new IndexMapping()).ready, false);
  assert.equal(new FieldSlots(seededMapping()).ready, true);
});

test('a scanned document is indexed and stored exactly as the general path would index it', () => {
  const lines = [
    '{"_line":"GET /Index.HTML 200 ok OK","host":"web-1","n":42,"x":0.25,"ok":false}',
    '{"_line":"POST /login 500 error","host":"web-2","n":-3,"x":2,"ok":true,"_ts":1700000000999}',
    '  { "_line" : "quoted \\"word\\" and back\\\\slash\\nnext\\tline" , "n" : 7 , "when" : 1700000000000 }  ',
    '{"_line":"Zebra zebra ZEBRA 123abc ABC123","host":"web-1"}',
    '{"_line":"caf\u00e9 au lait","host":"web-3"}', // general path, between scanned ones
    `{"_line":"${'a'.repeat(300)} tail","host":null}`, // a token past the length limit is cut
    '{"_line":"x","tags":["p","q"],"user":{"name":"n"}}',
    '{"_line":"last one","x":1e3,"ok":true}',
  ];
  assert.equal(indexBothWays(lines, seededMapping), 6, 'all but the non-ASCII and the nested document are scanned');
});

/**
 * Indexes the lines as the write path does (scanned where possible) and all through the general
 * path, each into a memtable over a mapping from `makeMapping`; checks that both hold the same
 * and returns how many lines were scanned.
 */
function indexBothWays(lines: readonly string[], makeMapping: () => IndexMapping): number {
  const body = Buffer.from(lines.join('\n'));
  const starts: number[] = [];
  for (let at = 0, i = 0; i < lines.length; i++) {
    starts.push(at);
    at += Buffer.byteLength(lines[i]!) + 1;
  }

  // the write path: scan where possible, else build
  const mapping = makeMapping();
  const slots = new FieldSlots(mapping);
  const scanner = new DocumentScanner(slots);
  const batch = new ShardWriteBatch(body, slots.list, lines.length);
  const scanned: ScannedDocument = { ts: NaN, keepEnd: 0 };
  let scannedCount = 0;
  lines.forEach((line, i) => {
    const start = starts[i]!;
    const end = start + Buffer.byteLength(line);
    const identity = { id: BigInt(1000 + i), lid: i + 1 };
    if (scanner.scan(body, start, end, batch.values, scanned)) {
      scannedCount++;
      const hasTs = !Number.isNaN(scanned.ts);
      batch.addScanned(identity.id, hasTs ? scanned.ts : RECEIVED_TS, identity.lid, hasTs, start, scanned.keepEnd);
    } else {
      batch.addGeneral(buildDocument(parseDocumentText(line), mapping, identity, RECEIVED_TS, line));
    }
  });
  batch.walRecord('logs', 'uuid-of-logs');
  const viaScanner = new Memtable('a');
  const counts: Array<[number, number]> = [];
  batch.addTo(viaScanner, (fields, tokens) => counts.push([fields, tokens]));

  // the general path for every document
  const generalMapping = makeMapping();
  const viaGeneral = new Memtable('b');
  const generalCounts: Array<[number, number]> = [];
  lines.forEach((line, i) => {
    const doc = buildDocument(parseDocumentText(line), generalMapping, { id: BigInt(1000 + i), lid: i + 1 }, RECEIVED_TS, line);
    viaGeneral.add(doc);
    generalCounts.push([doc.fields.length, viaGeneral.lastTokenCount]);
  });

  assert.deepEqual(dumpReader(viaScanner), dumpReader(viaGeneral));
  assert.deepEqual(counts, generalCounts);
  assert.deepEqual(mapping.toJSON(), generalMapping.toJSON());
  return scannedCount;
}

test('declared text fields (standard analyzer) and multi-fields are indexed alike on both paths', () => {
  const makeMapping = () => {
    const mapping = new IndexMapping();
    mapping.declare('message', 'text');
    mapping.declare('message.raw', 'keyword', 'message');
    mapping.declare('message.words', 'text', 'message');
    mapping.declare('host', 'keyword');
    mapping.declare('host.text', 'text', 'host');
    buildDocument({ _line: 'seed', message: 'seed', host: 'h', _ts: 1 }, mapping, { id: 1n, lid: 1 }, RECEIVED_TS);
    return mapping;
  };
  const lines = [
    `{"message":"The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.","host":"Web-1"}`,
    '{"message":"db-1.example.com:5432 after 3.5s, user@example.com","_line":"also a line"}',
    '{"message":"quoted \\"word\\" and back\\\\slash\\nnext\\tline","host":"web-2"}', // escapes: the keyword goes the general path
    '{"message":"Zürich ÜBER straße","host":"web-3"}',
    '{"message":null,"host":"web-4"}',
    '{"message":["one value","two values"]}',
    `{"message":"${'w'.repeat(600)} tail"}`,
  ];
  assert.equal(indexBothWays(lines, makeMapping), 4, 'the escaped, non-ASCII and array documents take the general path');
});
