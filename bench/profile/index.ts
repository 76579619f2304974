/**
 * CPU profiles of the service under benchmark: where self time goes per function and per
 * source file, over the whole run and per benchmark phase.
 */
export { summarizeProfile, monotonicMicros, profileThread, type PhaseWindow, type ProfileSummary, type SelfTime } from './summarize-profile.js';
