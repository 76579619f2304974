/**
 * Distinct counting for `cardinality`: exact (a set of 32-bit hashes) up to the precision
 * threshold, then a HyperLogLog of 2^p one-byte registers. p follows Elasticsearch's choice for
 * the threshold (threshold / 0.75 hash-table entries of 4 bytes: 3000 → p = 14), between 4 and 18.
 * The standard error of the register estimate is 1.04 / sqrt(2^p) (0.81% at p = 14); below the
 * threshold the count is exact but for 32-bit hash collisions (about n² / 2^33).
 */
import type { Account } from '../memory.js';

export const DEFAULT_PRECISION_THRESHOLD = 3000;
export const MAX_PRECISION_THRESHOLD = 40_000;

export function precisionFor(threshold: number): number {
  const entries = Math.ceil(Math.max(1, threshold) / 0.75) * 4;
  const bits = 32 - Math.clz32(entries);
  return Math.min(18, Math.max(4, bits));
}

const EMPTY = 0;

/** A sketch as JSON: the exact hashes, or the registers in base64. */
export interface HyperLogLogWire {
  precision: number;
  threshold: number;
  hashes?: number[];
  registers?: string;
}

export class HyperLogLog {
  /** open addressing, 0 = free slot (hash 0 is stored as 1) */
  private set: Int32Array | null = new Int32Array(8);
  private setSize = 0;
  private registers: Uint8Array | null = null;

  constructor(
    readonly precision: number,
    readonly threshold: number,
  ) {}

  static bytesFor(precision: number): number {
    return 1 << precision;
  }

  get bytes(): number {
    return 48 + (this.set?.byteLength ?? 0) + (this.registers?.byteLength ?? 0);
  }

  add(hash: number, account: Account): void {
    if (this.registers !== null) {
      this.addToRegisters(this.registers, hash);
      return;
    }
    const h = hash === EMPTY ? 1 : hash | 0;
    if (!this.insert(h)) return;
    this.setSize++;
    if (this.setSize > this.threshold) this.toRegisters(account);
    else if (this.setSize * 4 > this.set!.length * 3) this.rehash(this.set!.length * 2, account);
  }

  /** true when newly added */
  private insert(h: number): boolean {
    const set = this.set!;
    const mask = set.length - 1;
    let i = Math.imul(h, 0x9e3779b1) >>> 0 & mask;
    for (;;) {
      const v = set[i]!;
      if (v === h) return false;
      if (v === EMPTY) {
        set[i] = h;
        return true;
      }
      i = (i + 1) & mask;
    }
  }

  private rehash(capacity: number, account: Account): void {
    const old = this.set!;
    account.charge(capacity * 4, 'cardinality');
    this.set = new Int32Array(capacity);
    for (let i = 0; i < old.length; i++) if (old[i] !== EMPTY) this.insert(old[i]!);
    account.release(old.byteLength);
  }

  private toRegisters(account: Account): void {
    account.charge(1 << this.precision, 'cardinality');
    const registers = new Uint8Array(1 << this.precision);
    const set = this.set!;
    for (let i = 0; i < set.length; i++) if (set[i] !== EMPTY) this.addToRegisters(registers, set[i]! >>> 0);
    account.release(set.byteLength);
    this.set = null;
    this.registers = registers;
  }

  private addToRegisters(registers: Uint8Array, hash: number): void {
    const p = this.precision;
    const index = hash >>> (32 - p);
    const rest = (hash << p) >>> 0;
    const rank = rest === 0 ? 33 - p : Math.clz32(rest) + 1;
    if (rank > registers[index]!) registers[index] = rank;
  }

  /** Hashes held while exact (for merging). */
  private hashes(): number[] {
    const out: number[] = [];
    const set = this.set;
    if (set !== null) for (let i = 0; i < set.length; i++) if (set[i] !== EMPTY) out.push(set[i]! >>> 0);
    return out;
  }

  estimate(): number {
    if (this.registers === null) return this.setSize;
    const registers = this.registers;
    const m = registers.length;
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < m; i++) {
      const r = registers[i]!;
      sum += 2 ** -r;
      if (r === 0) zeros++;
    }
    const alpha = m === 16 ? 0.673 : m === 32 ? 0.697 : m === 64 ? 0.709 : 0.7213 / (1 + 1.079 / m);
    let e = (alpha * m * m) / sum;
    if (e <= 2.5 * m && zeros > 0) e = m * Math.log(m / zeros);
    else if (e > 2 ** 32 / 30) e = -(2 ** 32) * Math.log(1 - e / 2 ** 32);
    return Math.round(e);
  }

  /** The sketch as JSON, to send it to another node. */
  toWire(): HyperLogLogWire {
    return this.registers === null
      ? { precision: this.precision, threshold: this.threshold, hashes: this.hashes() }
      : { precision: this.precision, threshold: this.threshold, registers: Buffer.from(this.registers.buffer, this.registers.byteOffset, this.registers.byteLength).toString('base64') };
  }

  static fromWire(wire: HyperLogLogWire, account: Account): HyperLogLog {
    const out = new HyperLogLog(wire.precision, wire.threshold);
    account.charge(out.bytes, 'cardinality');
    if (wire.registers !== undefined) {
      const registers = new Uint8Array(Buffer.from(wire.registers, 'base64'));
      account.charge(registers.byteLength, 'cardinality');
      account.release(out.set!.byteLength);
      out.set = null;
      out.registers = registers;
    } else {
      for (const h of wire.hashes ?? []) out.add(h, account);
    }
    return out;
  }

  /** A new sketch counting what both count; the inputs are left as they are. */
  static merge(a: HyperLogLog, b: HyperLogLog, account: Account): HyperLogLog {
    const out = new HyperLogLog(a.precision, a.threshold);
    account.charge(out.bytes, 'cardinality');
    if (a.registers === null && b.registers === null) {
      for (const h of a.hashes()) out.add(h, account);
      for (const h of b.hashes()) out.add(h, account);
      return out;
    }
    account.charge(1 << a.precision, 'cardinality');
    const registers = new Uint8Array(1 << a.precision);
    for (const s of [a, b]) {
      if (s.registers !== null) {
        for (let i = 0; i < registers.length; i++) if (s.registers[i]! > registers[i]!) registers[i] = s.registers[i]!;
      } else {
        for (const h of s.hashes()) out.addToRegisters(registers, h);
      }
    }
    account.release(out.set!.byteLength);
    out.set = null;
    out.registers = registers;
    return out;
  }
}
