/**
 * The words the benchmark queries use, taken from the vocabulary at fixed Zipf ranks so that
 * each query has a known frequency class, whatever the seed.
 */
import type { CorpusGenerator } from './generator.js';
import type { TallyWatch } from './tally.js';
import { templateWords } from './templates.js';

/** Zipf ranks (1 = most frequent) of the words each query uses. */
export const QUERY_RANKS = {
  rare: 20_000,
  common: 5,
  conjunction: [3, 8] as const,
  recent: 10,
  newest: 4,
} as const;

/** The wildcard prefix should expand to about this many distinct terms. */
export const PREFIX_TARGET_TERMS = 300;

/** how many of the newest documents holding a common word are asked for */
export const NEWEST_COUNT = 100;

/** the numeric range query counts documents whose HTTP status is at or above this (server errors) */
export const STATUS_AT_LEAST = 500;

/** a word no document holds: its search measures the fixed cost of a request */
export const ABSENT_WORD = 'qxzjnomatchqxzj';

/** the word query on the newest slice of the time span covers this last fraction of it */
export const RECENT_FRACTION = 0.1;

export interface QueryWords {
  rare: string;
  common: string;
  conjunction: readonly [string, string];
  phrase: readonly [string, string];
  prefix: string;
  /** how many vocabulary words start with the prefix */
  prefixVocabularyTerms: number;
  recent: string;
  recentFromMs: number;
  newest: string;
}

export function chooseQueryWords(gen: CorpusGenerator): QueryWords {
  const words = gen.vocabulary.words;
  const at = (rank: number) => words[Math.min(rank, words.length) - 1]!;
  const { prefix, terms } = choosePrefix(words.slice(gen.vocabulary.realWordCount));
  return {
    rare: at(QUERY_RANKS.rare),
    common: at(QUERY_RANKS.common),
    conjunction: [at(QUERY_RANKS.conjunction[0]), at(QUERY_RANKS.conjunction[1])],
    phrase: gen.collocations[0]!,
    prefix,
    prefixVocabularyTerms: terms,
    recent: at(QUERY_RANKS.recent),
    recentFromMs: gen.startMs + Math.floor(gen.spanMs * (1 - RECENT_FRACTION)),
    newest: at(QUERY_RANKS.newest),
  };
}

/** What the tally must count to know every query's exact answer. */
export function tallyWatchFor(q: QueryWords): TallyWatch {
  return {
    words: [q.rare, q.common, q.newest, q.recent, ...q.conjunction, ...q.phrase],
    conjunctions: [q.conjunction, q.phrase, [q.rare, q.common]],
    phrases: [q.phrase],
    prefixes: [q.prefix],
    recent: [{ word: q.recent, fromMs: q.recentFromMs }],
    newest: [{ word: q.newest, k: NEWEST_COUNT }],
    statusAtLeast: [STATUS_AT_LEAST],
  };
}

/**
 * The three- or four-letter prefix whose vocabulary expansion is closest to the target size,
 * skipping prefixes of template words (which would match nearly every line) and prefixes made
 * of hex letters only (which would match hex ids).
 */
function choosePrefix(pseudoWords: readonly string[]): { prefix: string; terms: number } {
  const reserved = [...templateWords()];
  const counts = new Map<string, number>();
  for (const w of pseudoWords) {
    for (const len of [3, 4]) {
      if (w.length > len) counts.set(w.slice(0, len), (counts.get(w.slice(0, len)) ?? 0) + 1);
    }
  }
  let best = '';
  let bestTerms = 0;
  for (const p of [...counts.keys()].sort()) {
    if (/^[a-f]+$/.test(p) || reserved.some((r) => r.startsWith(p))) continue;
    const terms = counts.get(p)!;
    if (best === '' || Math.abs(terms - PREFIX_TARGET_TERMS) < Math.abs(bestTerms - PREFIX_TARGET_TERMS)) {
      best = p;
      bestTerms = terms;
    }
  }
  return { prefix: best, terms: bestTerms };
}
