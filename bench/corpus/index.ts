/**
 * The benchmark corpus: a seeded generator of realistic log documents (access, application,
 * exception and key=value lines over a Zipf vocabulary), the query words picked at known ranks,
 * and a tally of each query's exact answer.
 */
export { Prng, deriveSeed } from './prng.js';
export { WeightedSampler, ZipfSampler } from './weighted.js';
export { buildVocabulary, type Vocabulary } from './vocabulary.js';
export {
  CorpusGenerator, DEFAULT_SPAN_MS, DEFAULT_START_MS, DEFAULT_VOCABULARY_SIZE, DEFAULT_ZIPF_EXPONENT, type CorpusOptions,
} from './generator.js';
export { CorpusTally, type TallyCounts, type TallyWatch } from './tally.js';
export { forEachAsciiToken } from './tokens.js';
export { chooseQueryWords, tallyWatchFor, QUERY_RANKS, RECENT_FRACTION, NEWEST_COUNT, PREFIX_TARGET_TERMS, STATUS_AT_LEAST, ABSENT_WORD, type QueryWords } from './query-words.js';
