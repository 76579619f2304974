/**
 * Fault runs: the service killed again and again under load (the crash loop), generated hostile
 * requests (the fuzzers) and more work than it can do (overload), with what it must still hold
 * and answer.
 */
export { runCrashLoop, type CrashLoopOptions, type CrashLoopReport } from './crash-loop.js';
export { fuzz, seedFuzzIndex, checkAnswer, FUZZ_KINDS, FUZZ_INDEX, type FuzzKind, type FuzzRun } from './fuzz.js';
export { runOverload, type OverloadOptions, type OverloadReport } from './overload.js';
