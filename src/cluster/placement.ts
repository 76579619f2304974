/**
 * The placement decision, a pure function: each index without a placement goes to the live
 * cache node holding the fewest indexes (ties by node id), counting those placed in this round;
 * placements of indexes that no longer exist are dropped. Indexes placed on a node that died are
 * left where they are: moving them needs their unflushed writes recovered first.
 */
import type { PlacementChange } from '../metastore/index.js';

export function planPlacements(
  indexes: readonly string[],
  placements: ReadonlyArray<{ index: string; nodeId: string }>,
  liveCacheNodeIds: readonly string[],
): PlacementChange {
  const existing = new Set(indexes);
  const placed = new Set(placements.map((p) => p.index));
  const remove = placements.filter((p) => !existing.has(p.index)).map((p) => p.index);
  if (liveCacheNodeIds.length === 0) return { place: [], remove };

  const load = new Map<string, number>(liveCacheNodeIds.map((id) => [id, 0]));
  for (const p of placements) {
    if (existing.has(p.index) && load.has(p.nodeId)) load.set(p.nodeId, load.get(p.nodeId)! + 1);
  }
  const place: Array<{ index: string; nodeId: string }> = [];
  for (const index of [...indexes].sort()) {
    if (placed.has(index)) continue;
    let best: string | undefined;
    for (const [id, count] of load) {
      if (best === undefined || count < load.get(best)! || (count === load.get(best)! && id < best)) best = id;
    }
    place.push({ index, nodeId: best! });
    load.set(best!, load.get(best!)! + 1);
  }
  return { place, remove };
}
