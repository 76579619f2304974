/**
 * Writes documents given as objects through the engine's byte-oriented write path: each
 * document becomes one JSON line of a body, as a bulk request would carry it.
 */
import type { Engine, WriteOp, WriteOutcome } from '../../src/engine/index.js';

export function writeDocs(engine: Engine, docs: ReadonlyArray<{ index: string; doc: unknown }>, receivedTs?: number): Promise<WriteOutcome[]> {
  const parts: Buffer[] = [];
  const ops: WriteOp[] = [];
  let at = 0;
  for (const { index, doc } of docs) {
    const line = Buffer.from(JSON.stringify(doc) + '\n', 'utf8');
    ops.push({ index, start: at, end: at + line.length - 1 });
    parts.push(line);
    at += line.length;
  }
  return engine.write(Buffer.concat(parts), ops, receivedTs);
}
