/**
 * Which analysis a text field gets: `_line` keeps its own word rule (runs of letters and digits),
 * every other text field (declared `text` in a mapping or a template) Elasticsearch's `standard`
 * analyzer. The choice depends on the field's name alone, so the index, the queries and the
 * highlighter always agree on it without storing anything.
 */
import { standardSpans, standardTokens } from './standard-tokenizer.js';
import { tokenSpans, type TokenSpan } from './token-spans.js';
import { tokenize } from './tokenizer.js';

export interface Analyzer {
  readonly name: 'line' | 'standard';
  /** Tokens in order; the index of a token is its position. */
  tokens(text: string): string[];
  /** Tokens with their UTF-16 offsets in the text. */
  spans(text: string): TokenSpan[];
}

/** The field whose text keeps the `_line` word rule. */
export const LINE_FIELD = '_line';

export const LINE_ANALYZER: Analyzer = { name: 'line', tokens: tokenize, spans: tokenSpans };
export const STANDARD_ANALYZER: Analyzer = { name: 'standard', tokens: standardTokens, spans: standardSpans };

/** The analyzer of text field `field`. */
export function analyzerFor(field: string): Analyzer {
  return field === LINE_FIELD ? LINE_ANALYZER : STANDARD_ANALYZER;
}
