/**
 * A named benchmark query: how to build its HTTP request from the corpus facts, the latency
 * target its median is held to, and how to tell that its answer is right.
 */
import type { QueryWords, TallyCounts } from '../corpus/index.js';
import type { HttpRequest } from '../harness/index.js';

export interface QueryContext {
  index: string;
  words: QueryWords;
  expected: TallyCounts;
}

export interface QueryCase {
  /** stable identifier, used in the JSON results */
  name: string;
  /** what a reader of the table sees */
  title: string;
  /** the median latency target in milliseconds, when the case has one */
  targetMedianMs?: number;
  request(ctx: QueryContext): HttpRequest;
  /** undefined when the answer is right, else what is wrong with it */
  check(body: unknown, ctx: QueryContext): string | undefined;
}
