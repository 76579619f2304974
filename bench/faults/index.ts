/**
 * Fault runs: the service killed again and again under load (the crash loop), and generated
 * hostile requests (the fuzzers), with what the service must still hold and answer.
 */
export { runCrashLoop, type CrashLoopOptions, type CrashLoopReport } from './crash-loop.js';
export { fuzz, seedFuzzIndex, checkAnswer, FUZZ_KINDS, FUZZ_INDEX, type FuzzKind, type FuzzRun } from './fuzz.js';
