/**
 * Results of a run: the JSON shape, the targets with their pass/fail checks, and the summary
 * printed on the terminal.
 */
export type { BenchResults } from './results.js';
export { TARGETS, checkTargets, type TargetCheck } from './targets.js';
export { renderSummary } from './summary.js';
export { renderMarkdown } from './markdown.js';
export { renderTable } from './table.js';
