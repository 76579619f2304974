/**
 * Fault runs: the service killed again and again under load (the crash loop), generated hostile
 * requests (the fuzzers), more work than it can do (overload) and a throttled disk under its
 * data directory (slow disk), with what it must still hold and answer.
 */
export { runCrashLoop, type CrashLoopOptions, type CrashLoopReport } from './crash-loop.js';
export { fuzz, seedFuzzIndex, checkAnswer, FUZZ_KINDS, FUZZ_INDEX, type FuzzKind, type FuzzRun } from './fuzz.js';
export { runOverload, type OverloadOptions, type OverloadReport } from './overload.js';
export { runSlowDisk, type SlowDiskOptions, type SlowDiskReport, type PhaseFigures, type PhaseName } from './slow-disk.js';
export { makeSlowDevice, type SlowDevice, type IoLimits } from './slow-device.js';
