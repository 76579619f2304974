/**
 * Ordinal columns given by another keyword field (format 3): where each value of a source field
 * fixes the value of this one (a host runs one service, a pod lives in one namespace), the column
 * stores the pairs (source term, ordinal) instead of a value per doc, and the reader derives it
 * from the source field's column. On the benchmark corpus the service column (0.22 % of the raw
 * bytes) becomes a few hundred bytes.
 *
 *   ordinal column flag 4 · varint numTerms · [terms, as for other ordinal columns] ·
 *   u8 name encoding · varint byte length · source field name ·
 *   varint (ordinal + 1) of docs without a source value (0: no value) ·
 *   varint numPairs · per pair: u8 encoding · varint byte length · source term · varint (ordinal + 1)
 *
 * The source's own column is never such a column (the writer keeps to that), so a reader resolves
 * one level at most.
 */
import type { OrdinalColumn } from '../segment-reader.js';
import { FormatError, type ByteReader } from './byte-reader.js';
import type { ByteWriter } from './byte-writer.js';
import { decodeString, encodeString, encodingFor } from './strings.js';

export interface OrdinalFunction {
  source: string;
  /** ordinal of docs without a source value, -1 for none */
  missing: number;
  /** per source term, the ordinal its docs hold (-1: no value) */
  pairs: Map<string, number>;
}

/**
 * The function giving `ords` (docs [0, numDocs)) from the source column, or null when some
 * source value goes with two different ordinals.
 */
export function findOrdinalFunction(ords: Int32Array, source: string, column: OrdinalColumn, numDocs: number): OrdinalFunction | null {
  // index 0: no source value; -2: not seen
  const map = new Int32Array(column.terms.length + 1).fill(-2);
  for (let d = 0; d < numDocs; d++) {
    const k = column.ords[d]! + 1;
    const v = ords[d]!;
    const m = map[k]!;
    if (m === -2) map[k] = v;
    else if (m !== v) return null;
  }
  const pairs = new Map<string, number>();
  for (let k = 1; k < map.length; k++) if (map[k]! !== -2) pairs.set(column.terms[k - 1]!, map[k]!);
  return { source, missing: map[0] === -2 ? -1 : map[0]!, pairs };
}

export function writeOrdinalFunction(out: ByteWriter, fn: OrdinalFunction): void {
  writeString(out, fn.source);
  out.varint(fn.missing + 1);
  out.varint(fn.pairs.size);
  for (const [term, ord] of fn.pairs) {
    writeString(out, term);
    out.varint(ord + 1);
  }
}

export function readOrdinalFunction(r: ByteReader, bytes: Uint8Array, numTerms: number): OrdinalFunction {
  const source = readString(r, bytes);
  const ordinal = (): number => {
    const o = r.varint() - 1;
    if (o >= numTerms) throw new FormatError('ordinal out of range');
    return o;
  };
  const missing = ordinal();
  const n = r.varint();
  if (n > r.remaining) throw new FormatError('bad ordinal pair count');
  const pairs = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const term = readString(r, bytes);
    pairs.set(term, ordinal());
  }
  return { source, missing, pairs };
}

/** The ordinals of docs [0, numDocs) from the source field's column. */
export function applyOrdinalFunction(fn: OrdinalFunction, column: OrdinalColumn | null, numDocs: number): Int32Array {
  if (column === null) throw new FormatError(`ordinals from field ${fn.source}, which has none`);
  const table = new Int32Array(column.terms.length);
  for (let k = 0; k < table.length; k++) table[k] = fn.pairs.get(column.terms[k]!) ?? -2;
  const ords = new Int32Array(numDocs);
  for (let d = 0; d < numDocs; d++) {
    const s = column.ords[d]!;
    const o = s < 0 ? fn.missing : table[s]!;
    if (o === -2) throw new FormatError(`no ordinal for a term of ${fn.source}`);
    ords[d] = o;
  }
  return ords;
}

function writeString(out: ByteWriter, s: string): void {
  const enc = encodingFor(s);
  out.u8(enc);
  out.lenBytes(encodeString(s, enc));
}

function readString(r: ByteReader, bytes: Uint8Array): string {
  const enc = r.u8();
  const len = r.varint();
  const start = r.pos;
  r.bytesView(len);
  return decodeString(bytes, start, start + len, enc);
}
