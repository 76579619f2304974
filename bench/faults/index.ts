/**
 * Fault runs: the service killed again and again under load (the crash loop), with what each
 * restart must still hold.
 */
export { runCrashLoop, type CrashLoopOptions, type CrashLoopReport } from './crash-loop.js';
