/**
 * The fields of one index as the document scanner meets them: JSON key bytes → a slot (a small
 * stable number with the field's name and mapped type). Only fields the mapping already holds
 * get a slot; a key seen for the first time sends its document down the general path, which
 * types the field, and the next document finds it here.
 */
import type { IndexMapping } from '../mapping/index.js';
import type { FieldSlot } from '../memtable/index.js';
import { hashBytes, TermHash } from '../memtable/index.js';

/** `_ts`: read by the scanner itself */
export const SLOT_TS = -1;
/** a key the scanner leaves to the general path: not mapped yet, or metadata (`_id`, `_index`, …) */
export const SLOT_GENERAL = -2;
/** `_lid`: set by the service in stored sources; only a replay of them reads past it */
export const SLOT_LID = -3;

/** Keys that are never an ordinary field: metadata and one JS hazard. */
const GENERAL_KEYS: ReadonlySet<string> = new Set(['_id', '_index', '_version', '__proto__']);

export class FieldSlots {
  readonly list: FieldSlot[] = [];
  private readonly keys = new TermHash();
  private isReady = false;
  /** multi-fields by name → their slots (never found by key: documents do not hold them) */
  private readonly multiFieldSlots = new Map<string, number>();
  /** per slot, the slots of its field's multi-fields, for mapping version `subVersion` */
  private subs: Array<readonly number[] | undefined> = [];
  private subVersion = -1;

  constructor(private readonly mapping: IndexMapping) {}

  /**
   * Whether the fast path may run: the general path has seen a document of this index, so the
   * built-in fields (`_ts`, `_lid`, which the scanner never registers) are in the mapping.
   */
  get ready(): boolean {
    // a mapping never loses a field: once true, it stays true
    this.isReady ||= this.mapping.mappedType('_ts') !== undefined && this.mapping.mappedType('_lid') !== undefined;
    return this.isReady;
  }

  /** The slot of the key bytes [start, end) (ASCII, no escapes), SLOT_TS, SLOT_LID or SLOT_GENERAL. */
  slotOf(bytes: Uint8Array, start: number, end: number): number {
    const hash = hashBytes(bytes, start, end, 0);
    const t = this.keys.find(0, bytes, start, end, hash);
    if (t >= 0) return this.keys.payload(t);
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
    if (GENERAL_KEYS.has(name)) return this.remember(bytes, start, end, hash, SLOT_GENERAL);
    if (name === '_ts') return this.remember(bytes, start, end, hash, SLOT_TS);
    if (name === '_lid') return this.remember(bytes, start, end, hash, SLOT_LID);
    // a multi-field in a document is the general path's error to report
    if (this.mapping.multiFieldParent(name) !== undefined) return this.remember(bytes, start, end, hash, SLOT_GENERAL);
    // not remembered: once the general path has typed the field, it gets a slot
    const type = this.mapping.mappedType(name);
    if (type === undefined) return SLOT_GENERAL;
    const slot = this.list.length;
    this.list.push({ slot, name, type });
    return this.remember(bytes, start, end, hash, slot);
  }

  /** Whether any field of the index has multi-fields. */
  get hasMultiFields(): boolean {
    return this.mapping.hasMultiFields;
  }

  /**
   * The slots of the multi-fields of `slot`'s field, or undefined when it has none. A field may
   * gain multi-fields later (`PUT _mapping`): the lists are rebuilt when the mapping changes.
   */
  subSlotsOf(slot: number): readonly number[] | undefined {
    if (this.subVersion !== this.mapping.version) {
      this.subs = [];
      this.subVersion = this.mapping.version;
    }
    let subs = this.subs[slot];
    if (subs === undefined) {
      subs = this.mapping.multiFields(this.list[slot]!.name).map((name) => this.multiFieldSlot(name));
      this.subs[slot] = subs;
    }
    return subs.length === 0 ? undefined : subs;
  }

  private multiFieldSlot(name: string): number {
    let slot = this.multiFieldSlots.get(name);
    if (slot === undefined) {
      slot = this.list.length;
      this.list.push({ slot, name, type: this.mapping.mappedType(name)! });
      this.multiFieldSlots.set(name, slot);
    }
    return slot;
  }

  private remember(bytes: Uint8Array, start: number, end: number, hash: number, slot: number): number {
    this.keys.insert(0, bytes, start, end, hash, slot, 0);
    return slot;
  }
}
