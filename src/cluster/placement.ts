/**
 * The placement decision, a pure function: each index without a placement goes to the live
 * cache node holding the fewest indexes (ties by node id), counting those placed in this round;
 * placements of indexes that no longer exist are dropped, unless younger than `graceMs` (an
 * index placed on demand before its first write creates it). With `moveFromDead`, indexes placed
 * on a node that is not live move to a live one the same way; without it they are left where
 * they are (their unflushed writes can only be recovered from a log every cache node reads).
 */
import type { PlacementChange } from '../metastore/index.js';

export interface PlacementOptions {
  moveFromDead?: boolean;
  nowMs?: number;
  /** placements of indexes not in the catalog stay this long after they were made */
  graceMs?: number;
}

export function planPlacements(
  indexes: readonly string[],
  placements: ReadonlyArray<{ index: string; nodeId: string; placedAtMs?: number }>,
  liveCacheNodeIds: readonly string[],
  opts: PlacementOptions = {},
): PlacementChange {
  const existing = new Set(indexes);
  const graceFrom = opts.nowMs === undefined || opts.graceMs === undefined ? Infinity : opts.nowMs - opts.graceMs;
  const young = (p: { placedAtMs?: number }) => p.placedAtMs !== undefined && p.placedAtMs > graceFrom;
  const live = new Set(liveCacheNodeIds);
  const stranded = opts.moveFromDead ? placements.filter((p) => existing.has(p.index) && !live.has(p.nodeId)) : [];
  const placed = new Set(placements.filter((p) => !stranded.includes(p)).map((p) => p.index));
  const remove = placements.filter((p) => !existing.has(p.index) && !young(p)).map((p) => p.index);
  const noMove = opts.moveFromDead ? { move: [] } : {};
  if (liveCacheNodeIds.length === 0) return { place: [], remove, ...noMove };

  const load = new Map<string, number>(liveCacheNodeIds.map((id) => [id, 0]));
  for (const p of placements) {
    if (existing.has(p.index) && load.has(p.nodeId)) load.set(p.nodeId, load.get(p.nodeId)! + 1);
  }
  const pick = (): string => {
    let best: string | undefined;
    for (const [id, count] of load) {
      if (best === undefined || count < load.get(best)! || (count === load.get(best)! && id < best)) best = id;
    }
    load.set(best!, load.get(best!)! + 1);
    return best!;
  };
  const place: Array<{ index: string; nodeId: string }> = [];
  for (const index of [...indexes].sort()) {
    if (!placed.has(index) && !stranded.some((p) => p.index === index)) place.push({ index, nodeId: pick() });
  }
  if (!opts.moveFromDead) return { place, remove };
  const move = [...stranded].sort((a, b) => (a.index < b.index ? -1 : 1)).map((p) => ({ index: p.index, from: p.nodeId, nodeId: pick() }));
  return { place, remove, move };
}
