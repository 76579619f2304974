/**
 * Every answer of the SegmentReader interface as plain data, for comparing two segments.
 */
import type { SegmentReader } from '../../src/engine/segment-reader.js';

export function dumpReader(reader: SegmentReader): unknown {
  const fields = reader.fields().map((f) => {
    const terms = [...reader.terms(f.name)];
    return {
      ...f,
      exists: [...reader.exists(f.name)],
      numeric: reader.numeric(f.name) ? [...reader.numeric(f.name)!].map(String) : null,
      ordinals: reader.ordinals(f.name) ? { ords: [...reader.ordinals(f.name)!.ords], terms: reader.ordinals(f.name)!.terms } : null,
      terms: terms.map((t) => {
        const p = reader.positions(f.name, t);
        return { t, df: reader.docFreq(f.name, t), docs: [...reader.postings(f.name, t)!], positions: p ? [...p.positions] : null, offsets: p ? [...p.offsets] : null };
      }),
    };
  });
  const sources = Array.from({ length: reader.numDocs }, (_, d) => reader.source(d));
  return {
    numDocs: reader.numDocs,
    minTs: reader.minTs,
    maxTs: reader.maxTs,
    maxLid: reader.maxLid,
    ids: [...reader.ids()].map(String),
    ts: [...reader.numeric('_ts')!],
    lid: [...reader.numeric('_lid')!],
    fields,
    sources,
  };
}

