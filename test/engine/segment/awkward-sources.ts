/**
 * Stored sources that a column-wise doc store must give back byte for byte although they do not
 * fit the common flat log shape: escapes, unicode, lone surrogates, nested objects, arrays, odd
 * white space, duplicate keys, non-canonical and huge numbers, `_ts`/`_lid` that differ from the
 * columns, and texts that are not JSON at all.
 */
import type { IndexedDocument } from '../../../src/engine/document/indexed-document.js';

/** [source, _ts]; `_lid` is the doc's position + 1 */
const SOURCES: ReadonlyArray<readonly [string, number]> = [
  ['{"_line":"tab\\there \\"quoted\\" back\\\\slash \\u00e9 \\ud83d\\ude00 \\/","_ts":1000,"_lid":1}', 1000],
  ['{"_line":"Ünïcödé 日本語 😀 emoji","_ts":1001,"_lid":2}', 1001],
  ['{"name":"\ud800x lone high","_ts":1002,"_lid":3}', 1002],
  ['{"name":"\\udc00 escaped lone low","_ts":1003,"_lid":4}', 1003],
  ['{"a":{"b":[1,2,{"c":null}]},"_ts":1004,"_lid":5}', 1004],
  ['{"tags":["x","y"],"_ts":1005,"_lid":6}', 1005],
  [' { "_line" : "spaced" ,\n\t"n":1 , "_ts":1006,"_lid":7 }\r\n', 1006],
  ['{"k":"a","k":"b","k":3,"_ts":1007,"_lid":8}', 1007],
  ['{"a":1.0,"b":1e3,"c":-0,"d":12345678901234567890,"e":-5,"f":0.1,"g":1E+3,"h":-0.0,"i":01,"_ts":1008,"_lid":9}', 1008],
  ['{"_lid":10,"_ts":1009,"_line":"metadata first"}', 1009],
  ['{"_line":"_ts differs from the column","_ts":7,"_lid":11}', 1010],
  ['{}', 1011],
  ['{"ok":true,"no":false,"nil":null,"_ts":1012,"_lid":13}', 1012],
  ['{"":"","e":"","_ts":1013,"_lid":14}', 1013],
  ['{"k\\"ey":"v","\\u0041":1,"_ts":1014,"_lid":15}', 1014],
  ['{"n":9007199254740993,"m":-9007199254740991,"big":4503599627370496,"s":-4503599627370495,"_ts":1015,"_lid":16}', 1015],
  ['not json at all', 1016],
  ['', 1017],
  ['{"a":"unterminated', 1018],
  ['{"a":"raw\ncontrol"}', 1019],
  ['{"_ts":7.5,"_lid":21}', 7.5],
  ['{"_ts":1e+21,"_lid":22}', 1e21],
  ['{"_ts":0,"_lid":23}', -0],
  ['{"_ts":-0,"_lid":24}', -0],
  ['{"a" :1,"b": -2 ,"c":1.5e-7,"d":-,"_ts":1024,"_lid":25}', 1024],
  ['{ }', 1025],
  ['{"a":1}}', 1026],
  ['{"a":1,}', 1027],
  ['{"_line":"trailing space after brace","_ts":1028,"_lid":29} ', 1028],
  ['{"x":"\u2028\u2029 line separators","_ts":1029,"_lid":30}', 1029],
  ['{"_ts":-1,"_lid":31,"neg":-1}', -1],
  ['{"_line":"","_ts":1031,"_lid":32}', 1031],
];

/** Documents with the awkward sources; `_id`s and `_lid`s start after `start` (default 0). */
export function awkwardDocs(start = 0): IndexedDocument[] {
  return SOURCES.map(([source, ts], i) => ({
    id: BigInt(start + i + 1),
    lid: start + i + 1,
    ts,
    source,
    fields: [{ name: 'k', type: 'keyword' as const, values: [`v${i % 3}`] }],
  }));
}

/** A flat log object with many keys: more value streams than a block usually holds. */
export function wideSource(i: number, ts: number, lid: number): string {
  const parts: string[] = [];
  for (let k = 0; k < 300; k++) parts.push(`"f${k}":${k % 2 === 0 ? `"s${(i * 7 + k) % 1000}"` : String(i * k)}`);
  return `{${parts.join(',')},"_ts":${ts},"_lid":${lid}}`;
}
