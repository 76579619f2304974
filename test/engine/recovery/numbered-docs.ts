/**
 * Documents `d<i>` with `_line` "line i" and `n` i, written by client `_id` through the engine's
 * write path, and the ids an engine holds: the recovery tests move an index between engines and
 * check each acknowledged document is there once.
 */
import type { Engine, WriteOp, WriteOutcome } from '../../../src/engine/index.js';
import { executeSearch } from '../../../src/engine/search/index.js';

/** Writes documents d<from> … d<to - 1> to `index`, then deletes the ids in `deletes`. */
export function writeNumbered(engine: Engine, index: string, from: number, to: number, deletes: readonly string[] = []): Promise<WriteOutcome[]> {
  const parts: Buffer[] = [];
  const ops: WriteOp[] = [];
  let at = 0;
  for (let i = from; i < to; i++) {
    const line = Buffer.from(JSON.stringify({ _line: `line ${i}`, n: i }) + '\n');
    ops.push({ index, start: at, end: at + line.length - 1, id: `d${i}` });
    parts.push(line);
    at += line.length;
  }
  for (const id of deletes) ops.push({ index, start: 0, end: 0, action: 'delete', id });
  return engine.write(Buffer.concat(parts), ops);
}

/** id → how many live documents of `index` have it. */
export function idCounts(engine: Engine, index: string): Map<string, number> {
  const result = executeSearch(engine.searchTargets([index]), { query: { kind: 'match_all' }, from: 0, size: 10_000, sort: [], trackTotalHits: true });
  const out = new Map<string, number>();
  for (const hit of result.hits) out.set(hit.id, (out.get(hit.id) ?? 0) + 1);
  return out;
}
