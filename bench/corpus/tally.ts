/**
 * Exact answers for the benchmark queries, counted while the corpus is generated: document
 * frequencies of watched words, documents holding both words of a pair, holding a phrase,
 * holding a word with a given prefix (and how many distinct such terms exist), and holding a
 * word at or after a time. The benchmark compares the service's hit counts with these.
 */
import { forEachAsciiToken } from './tokens.js';

export interface TallyWatch {
  words: readonly string[];
  /** two-word conjunctions: documents holding both */
  conjunctions: ReadonlyArray<readonly [string, string]>;
  /** two-word phrases: documents where the second word directly follows the first */
  phrases: ReadonlyArray<readonly [string, string]>;
  prefixes: readonly string[];
  /** documents holding the word with `_ts` >= fromMs */
  recent: ReadonlyArray<{ word: string; fromMs: number }>;
  /** the `_ts` of the newest k documents holding the word */
  newest: ReadonlyArray<{ word: string; k: number }>;
  /** documents whose `status` is at or above each bound */
  statusAtLeast: readonly number[];
}

export interface TallyCounts {
  docs: number;
  docFrequency: Record<string, number>;
  conjunction: Record<string, number>;
  phrase: Record<string, number>;
  prefixDocs: Record<string, number>;
  prefixTerms: Record<string, number>;
  recent: Record<string, number>;
  /** newest first */
  newestTs: Record<string, number[]>;
  /** by the bound, as a decimal string */
  statusAtLeast: Record<string, number>;
}

export class CorpusTally {
  private docs = 0;
  private readonly slotOf = new Map<string, number>();
  private readonly present: Uint8Array;
  private readonly df: Float64Array;
  private readonly phraseSeen: Uint8Array;
  private readonly phraseDocs: Float64Array;
  private readonly prefixSeen: Uint8Array;
  private readonly prefixDocs: Float64Array;
  private readonly prefixTerms: Array<Set<string>>;
  private readonly conjunctionDocs: Float64Array;
  private readonly recentDocs: Float64Array;
  private readonly newestRings: Float64Array[];
  private readonly newestSeen: Float64Array;
  private readonly statusDocs: Float64Array;
  private previous = '';

  constructor(private readonly watch: TallyWatch) {
    const all = [
      ...watch.words,
      ...watch.conjunctions.flat(),
      ...watch.phrases.flat(),
      ...watch.recent.map((r) => r.word),
    ];
    for (const w of all) if (!this.slotOf.has(w)) this.slotOf.set(w, this.slotOf.size);
    this.present = new Uint8Array(this.slotOf.size);
    this.df = new Float64Array(this.slotOf.size);
    this.phraseSeen = new Uint8Array(watch.phrases.length);
    this.phraseDocs = new Float64Array(watch.phrases.length);
    this.prefixSeen = new Uint8Array(watch.prefixes.length);
    this.prefixDocs = new Float64Array(watch.prefixes.length);
    this.prefixTerms = watch.prefixes.map(() => new Set<string>());
    this.conjunctionDocs = new Float64Array(watch.conjunctions.length);
    this.recentDocs = new Float64Array(watch.recent.length);
    this.newestRings = watch.newest.map((n) => new Float64Array(n.k));
    this.newestSeen = new Float64Array(watch.newest.length);
    this.statusDocs = new Float64Array(watch.statusAtLeast.length);
  }

  /** Counts one document; `status` is -1 when the document has none. */
  add(line: string, tsMs: number, status = -1): void {
    this.docs++;
    this.present.fill(0);
    this.phraseSeen.fill(0);
    this.prefixSeen.fill(0);
    this.previous = '';
    forEachAsciiToken(line, this.onToken);

    for (let i = 0; i < this.present.length; i++) this.df[i]! += this.present[i]!;
    for (let i = 0; i < this.phraseSeen.length; i++) this.phraseDocs[i]! += this.phraseSeen[i]!;
    for (let i = 0; i < this.prefixSeen.length; i++) this.prefixDocs[i]! += this.prefixSeen[i]!;
    this.watch.conjunctions.forEach(([a, b], i) => {
      if (this.has(a) && this.has(b)) this.conjunctionDocs[i]!++;
    });
    this.watch.recent.forEach(({ word, fromMs }, i) => {
      if (tsMs >= fromMs && this.has(word)) this.recentDocs[i]!++;
    });
    // documents arrive in rising `_ts` order, so the last k holding the word are the newest
    this.watch.newest.forEach(({ word, k }, i) => {
      if (!this.has(word)) return;
      this.newestRings[i]![this.newestSeen[i]! % k] = tsMs;
      this.newestSeen[i]!++;
    });
    const bounds = this.watch.statusAtLeast;
    for (let i = 0; i < bounds.length; i++) if (status >= 0 && status >= bounds[i]!) this.statusDocs[i]!++;
  }

  counts(): TallyCounts {
    const label = (pair: readonly [string, string]) => `${pair[0]} ${pair[1]}`;
    return {
      docs: this.docs,
      docFrequency: Object.fromEntries(this.watch.words.map((w) => [w, this.df[this.slotOf.get(w)!]!])),
      conjunction: Object.fromEntries(this.watch.conjunctions.map((p, i) => [label(p), this.conjunctionDocs[i]!])),
      phrase: Object.fromEntries(this.watch.phrases.map((p, i) => [label(p), this.phraseDocs[i]!])),
      prefixDocs: Object.fromEntries(this.watch.prefixes.map((p, i) => [p, this.prefixDocs[i]!])),
      prefixTerms: Object.fromEntries(this.watch.prefixes.map((p, i) => [p, this.prefixTerms[i]!.size])),
      recent: Object.fromEntries(this.watch.recent.map((r, i) => [`${r.word} @${r.fromMs}`, this.recentDocs[i]!])),
      newestTs: Object.fromEntries(this.watch.newest.map((n, i) => [n.word, this.newestOf(i)])),
      statusAtLeast: Object.fromEntries(this.watch.statusAtLeast.map((b, i) => [String(b), this.statusDocs[i]!])),
    };
  }

  private newestOf(i: number): number[] {
    const ring = this.newestRings[i]!;
    const seen = this.newestSeen[i]!;
    const kept = Math.min(seen, ring.length);
    const out: number[] = [];
    for (let j = 1; j <= kept; j++) out.push(ring[(seen - j) % ring.length]!);
    return out;
  }

  private has(word: string): boolean {
    return this.present[this.slotOf.get(word)!] === 1;
  }

  private readonly onToken = (token: string): void => {
    const slot = this.slotOf.get(token);
    if (slot !== undefined) this.present[slot] = 1;
    const phrases = this.watch.phrases;
    for (let i = 0; i < phrases.length; i++) {
      const [a, b] = phrases[i]!;
      if (token === b && this.previous === a) this.phraseSeen[i] = 1;
    }
    const prefixes = this.watch.prefixes;
    for (let i = 0; i < prefixes.length; i++) {
      if (token.startsWith(prefixes[i]!)) {
        this.prefixSeen[i] = 1;
        this.prefixTerms[i]!.add(token);
      }
    }
    this.previous = token;
  };
}
