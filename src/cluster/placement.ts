/**
 * The placement decisions, pure functions. planPlacements: each index without a placement goes
 * to the live cache node holding the fewest indexes (ties by node id; a draining node takes
 * none), counting those placed in this round;
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
  /** live cache nodes that take no index (they are draining) */
  draining?: ReadonlySet<string>;
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
  const targets = liveCacheNodeIds.filter((id) => !opts.draining?.has(id));
  const stranded = opts.moveFromDead ? placements.filter((p) => existing.has(p.index) && !live.has(p.nodeId)) : [];
  const placed = new Set(placements.filter((p) => !stranded.includes(p)).map((p) => p.index));
  const remove = placements.filter((p) => !existing.has(p.index) && !young(p)).map((p) => p.index);
  const noMove = opts.moveFromDead ? { move: [] } : {};
  if (targets.length === 0) return { place: [], remove, ...noMove };

  const load = new Map<string, number>(targets.map((id) => [id, 0]));
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

/** A live index to hand over from one cache node to another. */
export interface PlannedMove {
  index: string;
  from: string;
  to: string;
}

/**
 * The next live move, or undefined when none is due. First the indexes of draining nodes, each
 * to the node that takes indexes holding the fewest; then, while the nodes that take indexes
 * hold counts that differ by more than one, an index of the busiest (ties by id) goes to the one
 * holding the fewest (ties by id). The index moved is the first by name: one at a time, each
 * move planned again from the placements it left. Indexes on nodes that are not live, and
 * placements of indexes not in the catalog, are not counted.
 */
export function planMove(
  indexes: readonly string[],
  placements: ReadonlyArray<{ index: string; nodeId: string }>,
  liveCacheNodes: ReadonlyArray<{ id: string; draining: boolean }>,
): PlannedMove | undefined {
  const existing = new Set(indexes);
  const held = new Map<string, string[]>(liveCacheNodes.map((n) => [n.id, []]));
  for (const p of placements) if (existing.has(p.index)) held.get(p.nodeId)?.push(p.index);
  for (const list of held.values()) list.sort();
  const targets = liveCacheNodes.filter((n) => !n.draining).map((n) => n.id);
  if (targets.length === 0) return undefined;
  const byLoad = (a: string, b: string) => held.get(a)!.length - held.get(b)!.length || (a < b ? -1 : 1);
  const fewest = () => [...targets].sort(byLoad)[0]!;
  for (const node of [...liveCacheNodes].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const first = held.get(node.id)![0];
    if (node.draining && first !== undefined) return { index: first, from: node.id, to: fewest() };
  }
  const least = fewest();
  const busiest = [...targets].sort((a, b) => held.get(b)!.length - held.get(a)!.length || (a < b ? -1 : 1))[0]!;
  if (held.get(busiest)!.length - held.get(least)!.length <= 1) return undefined;
  return { index: held.get(busiest)![0]!, from: busiest, to: least };
}
