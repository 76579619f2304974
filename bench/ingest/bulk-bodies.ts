/**
 * Turns the corpus into `_bulk` request bodies ahead of the run, so that generating documents
 * costs the measured ingest nothing. Each body holds `batchDocs` action + document line pairs.
 */
import type { CorpusGenerator } from '../corpus/index.js';

export interface BulkBodies {
  bodies: Buffer[];
  /** documents in each body */
  docCounts: Uint32Array;
  docs: number;
  /** bytes of document lines, newlines included */
  documentBytes: number;
  /** bytes of whole bodies: action lines, document lines, newlines */
  totalBytes: number;
  generateMs: number;
}

/**
 * Cuts the generator's documents into bodies; `observe` sees the generator after each document
 * (its `last*` fields), for tallying expected answers on the way.
 */
export function buildBulkBodies(
  gen: CorpusGenerator,
  opts: {
    batchDocs: number;
    index: string;
    /** more indexes: body i goes to `indexes[i % indexes.length]` (`index` is then not used) */
    indexes?: readonly string[];
    observe?: (gen: CorpusGenerator) => void;
  },
): BulkBodies {
  const started = performance.now();
  const actions = (opts.indexes ?? [opts.index]).map((index) => `{"index":{"_index":${JSON.stringify(index)}}}\n`);
  const bodies: Buffer[] = [];
  const counts: number[] = [];
  let documentBytes = 0;
  let totalBytes = 0;
  while (gen.generated < gen.docs) {
    const n = Math.min(opts.batchDocs, gen.docs - gen.generated);
    const parts: string[] = new Array(n);
    const action = actions[bodies.length % actions.length]!;
    for (let i = 0; i < n; i++) {
      const doc = gen.next();
      opts.observe?.(gen);
      parts[i] = `${action}${doc}\n`;
      // the corpus is ASCII apart from what JSON.stringify escapes, so length is the byte count
      documentBytes += doc.length + 1;
    }
    const body = Buffer.from(parts.join(''), 'utf8');
    bodies.push(body);
    counts.push(n);
    totalBytes += body.length;
  }
  return { bodies, docCounts: Uint32Array.from(counts), docs: gen.docs, documentBytes, totalBytes, generateMs: performance.now() - started };
}
