/**
 * Phrase matching on token positions. Candidates are the docs holding every slot's term; each is
 * then checked on positions: exact phrases need `pos(slot i) = p + i`; sloppy ones (Lucene's
 * rule) need the spread of `pos(slot i) - i` over the slots to be at most `slop`, so a swap of two
 * adjacent terms costs 2.
 */
import type { PositionPostings } from '../segment-reader.js';
import type { Deadline } from './deadline.js';
import { clip, gallop, intersectMany, unionMany } from './doc-set.js';
import type { PhraseNode } from './plan-node.js';

// candidates verified between two looks at the clock
const CHECK_EVERY = 0x3fff;

/** Positions of one slot in the current doc: `arr[start..end)`, ascending. */
class SlotCursor {
  arr: Uint32Array = new Uint32Array(0);
  start = 0;
  end = 0;
  private readonly cursors: Int32Array;
  private scratch: Uint32Array;

  constructor(private readonly alts: PositionPostings[]) {
    this.cursors = new Int32Array(alts.length);
    this.scratch = new Uint32Array(alts.length > 1 ? 64 : 0);
  }

  /** Moves to `doc` (ascending across calls); false when no alternative holds it. */
  seek(doc: number): boolean {
    const alts = this.alts;
    if (alts.length === 1) {
      const a = alts[0]!;
      const i = gallop(a.docs, doc, this.cursors[0]!);
      this.cursors[0] = i;
      if (a.docs[i] !== doc) return false;
      this.arr = a.positions;
      this.start = a.offsets[i]!;
      this.end = a.offsets[i + 1]!;
      return true;
    }
    let n = 0;
    for (let k = 0; k < alts.length; k++) {
      const a = alts[k]!;
      const i = gallop(a.docs, doc, this.cursors[k]!);
      this.cursors[k] = i;
      if (a.docs[i] !== doc) continue;
      const from = a.offsets[i]!;
      const to = a.offsets[i + 1]!;
      if (n + to - from > this.scratch.length) {
        const grown = new Uint32Array(Math.max(this.scratch.length * 2, n + to - from));
        grown.set(this.scratch.subarray(0, n));
        this.scratch = grown;
      }
      this.scratch.set(a.positions.subarray(from, to), n);
      n += to - from;
    }
    if (n === 0) return false;
    this.scratch.subarray(0, n).sort();
    this.arr = this.scratch;
    this.start = 0;
    this.end = n;
    return true;
  }
}

function exactMatch(slots: SlotCursor[], ptr: Int32Array): boolean {
  const n = slots.length;
  for (let s = 0; s < n; s++) ptr[s] = slots[s]!.start;
  let target = slots[0]!.arr[ptr[0]!]!;
  for (;;) {
    let restarted = false;
    for (let s = 0; s < n; s++) {
      const slot = slots[s]!;
      const need = target + s;
      let p = ptr[s]!;
      while (p < slot.end && slot.arr[p]! < need) p++;
      ptr[s] = p;
      if (p === slot.end) return false;
      const v = slot.arr[p]!;
      if (v > need) {
        target = v - s;
        restarted = true;
        break;
      }
    }
    if (!restarted) return true;
  }
}

function sloppyMatch(slots: SlotCursor[], ptr: Int32Array, slop: number, sameKey: Int32Array): boolean {
  const n = slots.length;
  for (let s = 0; s < n; s++) ptr[s] = slots[s]!.start;
  for (;;) {
    let min = Infinity;
    let max = -Infinity;
    let minSlot = 0;
    for (let s = 0; s < n; s++) {
      const v = slots[s]!.arr[ptr[s]!]! - s;
      if (v < min) {
        min = v;
        minSlot = s;
      }
      if (v > max) max = v;
    }
    if (max - min <= slop && distinctRepeats(slots, ptr, sameKey)) return true;
    const p = ++ptr[minSlot]!;
    if (p === slots[minSlot]!.end) return false;
  }
}

// a term repeated in the phrase must be matched at different positions
function distinctRepeats(slots: SlotCursor[], ptr: Int32Array, sameKey: Int32Array): boolean {
  for (let s = 0; s < slots.length; s++) {
    const t = sameKey[s]!;
    if (t < 0) continue;
    if (slots[s]!.arr[ptr[s]!] === slots[t]!.arr[ptr[t]!]) return false;
  }
  return true;
}

// lists further apart in length than this are intersected by probing or galloping, not walked
const WALK_RATIO = 24;

/**
 * An exact phrase of two terms on lists of comparable lengths (most phrases people type): the
 * two lists are walked together, each doc looked at once, and where both hold a doc the
 * positions are checked on the spot, with no candidate list and no search per doc. About four
 * times faster than intersecting first and then seeking each candidate in each list; a
 * general walk over any number of slots measured three times slower than this one.
 */
function walkTwoTerms(a: PositionPostings, b: PositionPostings, limit: number, deadline: Deadline): Uint32Array {
  const ad = clip(a.docs, limit);
  const bd = clip(b.docs, limit);
  const { offsets: ao, positions: ap } = a;
  const { offsets: bo, positions: bp } = b;
  const na = ad.length;
  const nb = bd.length;
  const out = new Uint32Array(Math.min(na, nb));
  let k = 0;
  let i = 0;
  let j = 0;
  let steps = 0;
  while (i < na && j < nb) {
    if ((++steps & CHECK_EVERY) === CHECK_EVERY) deadline.check();
    const x = ad[i]!;
    const y = bd[j]!;
    if (x < y) {
      i++;
      continue;
    }
    if (y < x) {
      j++;
      continue;
    }
    let p = ao[i]!;
    const pe = ao[i + 1]!;
    let q = bo[j]!;
    const qe = bo[j + 1]!;
    let hit = 0;
    while (p < pe && q < qe) {
      const need = ap[p]! + 1;
      const v = bp[q]!;
      if (v < need) q++;
      else if (v > need) p++;
      else {
        hit = 1;
        break;
      }
    }
    out[k] = x;
    k += hit;
    i++;
    j++;
  }
  return out.subarray(0, k);
}

function walkable(node: PhraseNode, within: Uint32Array | null): boolean {
  if (node.slop !== 0 || within !== null || node.slots.length !== 2) return false;
  const [a, b] = node.slots as [PositionPostings[], PositionPostings[]];
  if (a.length !== 1 || b.length !== 1) return false;
  const na = a[0]!.docs.length;
  const nb = b[0]!.docs.length;
  return Math.max(na, nb) <= Math.min(na, nb) * WALK_RATIO;
}

/** Docs (restricted to `within` when given, and below `limit`) where the phrase occurs. */
export function matchPhrase(
  node: PhraseNode,
  within: Uint32Array | null,
  limit: number,
  deadline: Deadline,
): Uint32Array {
  if (walkable(node, within)) return walkTwoTerms(node.slots[0]![0]!, node.slots[1]![0]!, limit, deadline);
  const slotDocs = node.slots.map((alts) =>
    alts.length === 1 ? clip(alts[0]!.docs, limit) : unionMany(alts.map((a) => clip(a.docs, limit)), limit, deadline),
  );
  const candidates = intersectMany(within === null ? slotDocs : [within, ...slotDocs]);
  if (candidates.length === 0) return candidates;
  const slots = node.slots.map((alts) => new SlotCursor(alts));
  const ptr = new Int32Array(slots.length);
  // for each slot, an earlier slot with the same term, or -1
  const sameKey = new Int32Array(slots.length).fill(-1);
  for (let s = 0; s < slots.length; s++) {
    const earlier = node.slotKeys.indexOf(node.slotKeys[s]!);
    if (earlier < s) sameKey[s] = earlier;
  }
  const out = new Uint32Array(candidates.length);
  let k = 0;
  for (let c = 0; c < candidates.length; c++) {
    if ((c & CHECK_EVERY) === CHECK_EVERY) deadline.check();
    const doc = candidates[c]!;
    let all = true;
    for (const slot of slots) {
      if (!slot.seek(doc)) {
        all = false;
        break;
      }
    }
    if (!all) continue;
    const hit = node.slop === 0 ? exactMatch(slots, ptr) : sloppyMatch(slots, ptr, node.slop, sameKey);
    if (hit) out[k++] = doc;
  }
  return out.subarray(0, k);
}
