/**
 * Query latency measurement: named query cases (each builds its HTTP request from the corpus
 * facts and checks the answer against the tally) and a runner that times them. New forms of
 * the same queries (Query DSL, `_msearch`, aggregations) are further lists of cases.
 */
export type { QueryCase, QueryContext } from './query-case.js';
export { queryStringCases } from './query-string-cases.js';
export { dslCases, msearchCase } from './dsl-cases.js';
export { aggregationCases } from './aggregation-cases.js';
export { countCases } from './count-cases.js';
export { runQueryCases, type QueryCaseResult } from './run-cases.js';
export { expectTotal, expectHitCount, expectNewest, reportedTotal, firstProblem } from './checks.js';
export { queriesUnderIngest, type UnderIngestResult } from './under-ingest.js';
