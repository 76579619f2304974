/**
 * Numbers of a template stream are grouped by the context they follow (doc-block-layout.ts):
 * this maps a context key to its group number, in order of first appearance, with open
 * addressing over typed arrays (keys are 23-bit numbers), as both encoder and decoder do it for
 * every number of a block.
 */
export class ContextGroups {
  private keys = new Int32Array(64).fill(-1);
  private groups = new Int32Array(64);
  size = 0;

  groupOf(key: number): number {
    let mask = this.keys.length - 1;
    let h = Math.imul(key, 0x9e3779b1) >>> 0;
    for (;;) {
      const i = h & mask;
      const k = this.keys[i]!;
      if (k === key) return this.groups[i]!;
      if (k === -1) {
        this.keys[i] = key;
        this.groups[i] = this.size;
        if (++this.size * 2 > this.keys.length) this.grow();
        return this.size - 1;
      }
      h++;
      mask = this.keys.length - 1;
    }
  }

  private grow(): void {
    const keys = this.keys;
    const groups = this.groups;
    this.keys = new Int32Array(keys.length * 2).fill(-1);
    this.groups = new Int32Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === -1) continue;
      let h = Math.imul(keys[i]!, 0x9e3779b1) >>> 0;
      while (this.keys[h & mask] !== -1) h++;
      this.keys[h & mask] = keys[i]!;
      this.groups[h & mask] = groups[i]!;
    }
  }
}

