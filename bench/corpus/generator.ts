/**
 * The document generator: a seeded stream of NDJSON document lines (`_line`, `_ts`, service,
 * host, level, and for some kinds status and latency_ms). `_ts` rises monotonically across the
 * time span with jitter. Same options, same bytes.
 */
import { Prng, deriveSeed } from './prng.js';
import { WeightedSampler, ZipfSampler } from './weighted.js';
import { buildVocabulary, type Vocabulary } from './vocabulary.js';
import { HOSTS_PER_SERVICE, SERVICES } from './templates.js';
import {
  writeAccessLine, writeAppLine, writeExceptionLine, writeKeyValueLine, type DocumentDraft, type LineWriter, type WordSource,
} from './line-formats.js';

export interface CorpusOptions {
  seed: number;
  /** number of documents the stream holds */
  docs: number;
  /** `_ts` of the first document */
  startMs?: number;
  /** the documents' `_ts` spread over this many milliseconds */
  spanMs?: number;
  vocabularySize?: number;
  zipfExponent?: number;
}

export const DEFAULT_START_MS = Date.UTC(2024, 0, 1);
export const DEFAULT_SPAN_MS = 24 * 3600 * 1000;
export const DEFAULT_VOCABULARY_SIZE = 50_000;
export const DEFAULT_ZIPF_EXPONENT = 1.1;

/** Frequent two-word collocations; their ranks sit among common, but not the most common, words. */
const COLLOCATION_COUNT = 32;
const COLLOCATION_RANK_FROM = 6;
const COLLOCATION_RANK_TO = 60;
/** chance that a run of two or more words opens with a collocation */
const COLLOCATION_PROBABILITY = 0.12;

const KIND_WRITERS: readonly LineWriter[] = [writeAccessLine, writeAppLine, writeKeyValueLine, writeExceptionLine];
const KIND_WEIGHTS = [35, 30, 25, 10];

export class CorpusGenerator implements WordSource {
  readonly prng: Prng;
  readonly vocabulary: Vocabulary;
  readonly startMs: number;
  readonly spanMs: number;
  readonly docs: number;
  /** the collocations, most frequent first */
  readonly collocations: ReadonlyArray<readonly [string, string]>;
  /** how often each rank was drawn (index rank - 1), for checking the distribution */
  readonly drawCounts: Uint32Array;

  /** fields of the document returned last by next(), for tallies; -1 where a number is absent */
  lastLine = '';
  lastTs = 0;
  lastService = '';
  lastHost = '';
  lastLevel = '';
  lastStatus = -1;
  lastLatencyMs = -1;

  private readonly zipf: ZipfSampler;
  private readonly collocationZipf: ZipfSampler;
  private readonly kinds: WeightedSampler<LineWriter>;
  private readonly services: WeightedSampler<number>;
  private readonly draft: DocumentDraft = { line: '', level: '', status: -1, latencyMs: -1 };
  private index = 0;

  constructor(opts: CorpusOptions) {
    this.docs = opts.docs;
    this.startMs = opts.startMs ?? DEFAULT_START_MS;
    this.spanMs = opts.spanMs ?? DEFAULT_SPAN_MS;
    const vocabularySize = opts.vocabularySize ?? DEFAULT_VOCABULARY_SIZE;
    this.vocabulary = buildVocabulary(deriveSeed(opts.seed, 1), vocabularySize);
    this.zipf = new ZipfSampler(vocabularySize, opts.zipfExponent ?? DEFAULT_ZIPF_EXPONENT);
    this.drawCounts = new Uint32Array(vocabularySize);
    this.collocations = pickCollocations(new Prng(deriveSeed(opts.seed, 2)), this.vocabulary);
    this.collocationZipf = new ZipfSampler(this.collocations.length, 1.1);
    this.kinds = new WeightedSampler(KIND_WRITERS, KIND_WEIGHTS);
    this.services = new WeightedSampler(
      SERVICES.map((_, i) => i),
      SERVICES.map((_, i) => 1 / (i + 1)),
    );
    this.prng = new Prng(deriveSeed(opts.seed, 3));
  }

  /** documents returned so far */
  get generated(): number {
    return this.index;
  }

  word(): string {
    const rank = this.zipf.sample(this.prng);
    this.drawCounts[rank - 1]!++;
    return this.vocabulary.words[rank - 1]!;
  }

  words(n: number): string {
    let out: string;
    let i: number;
    if (n >= 2 && this.prng.chance(COLLOCATION_PROBABILITY)) {
      const pair = this.collocations[this.collocationZipf.sample(this.prng) - 1]!;
      out = `${pair[0]} ${pair[1]}`;
      i = 2;
    } else {
      out = this.word();
      i = 1;
    }
    for (; i < n; i++) out += ` ${this.word()}`;
    return out;
  }

  /** the next document as one JSON line without its newline */
  next(): string {
    if (this.index >= this.docs) throw new Error('corpus exhausted');
    const prng = this.prng;
    // within each slot of span/docs milliseconds, at a random offset: rising, never falling
    const ts = this.startMs + Math.floor(((this.index + prng.next()) * this.spanMs) / this.docs);
    this.index++;

    const draft = this.draft;
    this.kinds.sample(prng)(this, ts, draft);
    const serviceIndex = this.services.sample(prng);
    const service = SERVICES[serviceIndex]!;
    const host = `${service}-${pad2(prng.range(1, HOSTS_PER_SERVICE))}`;

    const level = draft.level.toLowerCase();
    let json = `{"_line":${JSON.stringify(draft.line)},"_ts":${ts},"service":"${service}","host":"${host}","level":"${level}"`;
    if (draft.status >= 0) json += `,"status":${draft.status}`;
    if (draft.latencyMs >= 0) json += `,"latency_ms":${draft.latencyMs}`;
    json += '}';
    this.lastLine = draft.line;
    this.lastTs = ts;
    this.lastService = service;
    this.lastHost = host;
    this.lastLevel = level;
    this.lastStatus = draft.status;
    this.lastLatencyMs = draft.latencyMs;
    return json;
  }
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function pickCollocations(prng: Prng, vocabulary: Vocabulary): Array<readonly [string, string]> {
  const words = vocabulary.words;
  const to = Math.min(COLLOCATION_RANK_TO, words.length);
  const from = Math.min(COLLOCATION_RANK_FROM, to - 2);
  const pairs: Array<readonly [string, string]> = [];
  const used = new Set<string>();
  while (pairs.length < COLLOCATION_COUNT && used.size < (to - from) * (to - from - 1)) {
    const a = words[prng.range(from, to - 1)]!;
    const b = words[prng.range(from, to - 1)]!;
    const key = `${a} ${b}`;
    if (a === b || used.has(key)) continue;
    used.add(key);
    pairs.push([a, b]);
  }
  return pairs;
}
