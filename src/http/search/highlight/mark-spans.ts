/**
 * Where a query's clauses match in one field value: `[start, end)` ranges of the value to tag.
 * Text fields (`_line` and fields declared `text`) are split with the field's own analyzer, so a
 * word is tagged exactly when the index would match it; keyword fields match whole, so a matching
 * keyword is tagged whole. Patterns are lowercased on text fields, as the search does.
 */
import { analyzerFor, compileLuceneRegexp, compileWildcard, type Analyzer, type TokenSpan } from '../../../engine/index.js';
import { fieldPattern } from '../field-pattern.js';
import type { HighlightClause } from './query-terms.js';

export type Span = readonly [start: number, end: number];

const KEYWORD_SUFFIX = '.keyword';

/** Whether a clause on `clauseField` (a name, a `*` pattern or `name.keyword`) is about `field`. */
export function clauseIsOn(clauseField: string, field: string): boolean {
  if (clauseField === field || clauseField === field + KEYWORD_SUFFIX) return true;
  return fieldPattern(clauseField)?.test(field) ?? false;
}

function patternTest(clause: Extract<HighlightClause, { kind: 'pattern' }>, lowercase: boolean): (s: string) => boolean {
  const pattern = lowercase ? clause.pattern.toLowerCase() : clause.pattern;
  if (clause.syntax === 'prefix') {
    if (clause.caseInsensitive) {
      const lower = pattern.toLowerCase();
      return (s) => s.toLowerCase().startsWith(lower);
    }
    return (s) => s.startsWith(pattern);
  }
  const compiled = clause.syntax === 'wildcard' ? compileWildcard(pattern, clause.caseInsensitive) : compileLuceneRegexp(pattern, clause.caseInsensitive);
  return (s) => compiled.regex.test(s);
}

/** Spans of a text field's value: tokens the clauses name, phrases where the tokens line up. */
function textSpans(analyzer: Analyzer, value: string, clauses: readonly HighlightClause[]): Span[] {
  const tokens = analyzer.spans(value);
  const marked = new Uint8Array(tokens.length);
  for (const clause of clauses) {
    switch (clause.kind) {
      case 'match': {
        const words = new Set(analyzer.tokens(clause.text));
        tokens.forEach((t, i) => words.has(t.token) && (marked[i] = 1));
        break;
      }
      case 'term': {
        const values = new Set(clause.caseInsensitive ? clause.values.map((v) => v.toLowerCase()) : clause.values);
        tokens.forEach((t, i) => values.has(t.token) && (marked[i] = 1));
        break;
      }
      case 'pattern': {
        const test = patternTest(clause, true);
        tokens.forEach((t, i) => test(t.token) && (marked[i] = 1));
        break;
      }
      case 'phrase':
        markPhrases(tokens, analyzer.tokens(clause.text), clause.slop, clause.prefix, marked);
        break;
    }
  }
  const spans: Span[] = [];
  tokens.forEach((t, i) => marked[i] && spans.push([t.start, t.end]));
  return spans;
}

/**
 * Tags every occurrence of the phrase: its words in order, the whole occurrence within
 * `words + slop` positions (Lucene's sloppy phrase also allows reordering at a cost; in-order
 * occurrences are the ones tagged here).
 */
function markPhrases(tokens: readonly TokenSpan[], words: readonly string[], slop: number, prefix: boolean, marked: Uint8Array): void {
  if (words.length === 0) return;
  const last = words.length - 1;
  const fits = (k: number, token: string) => (prefix && k === last ? token.startsWith(words[k]!) : token === words[k]);
  const window = words.length + slop;
  for (let i = 0; i < tokens.length; i++) {
    if (!fits(0, tokens[i]!.token)) continue;
    const found = [i];
    for (let j = i + 1, k = 1; k < words.length && j < tokens.length && j - i < window; j++) {
      if (fits(k, tokens[j]!.token)) {
        found.push(j);
        k++;
      } else if (slop === 0) break;
    }
    if (found.length === words.length) for (const p of found) marked[p] = 1;
  }
}

/** A keyword value is tagged whole when a clause matches it whole. */
function keywordSpans(value: string, clauses: readonly HighlightClause[]): Span[] {
  const whole: Span[] = [[0, value.length]];
  for (const clause of clauses) {
    switch (clause.kind) {
      case 'match':
      case 'phrase':
        if (clause.text === value) return whole;
        break;
      case 'term':
        if (clause.values.some((v) => (clause.caseInsensitive ? v.toLowerCase() === value.toLowerCase() : v === value))) return whole;
        break;
      case 'pattern':
        if (patternTest(clause, false)(value)) return whole;
        break;
    }
  }
  return [];
}

/** Sorted, non-overlapping spans of `value` that the clauses match, for a text or keyword field. */
export function matchSpans(field: string, value: string, kind: 'text' | 'keyword', clauses: readonly HighlightClause[]): Span[] {
  if (value === '' || clauses.length === 0) return [];
  return kind === 'text' ? textSpans(analyzerFor(field), value, clauses) : keywordSpans(value, clauses);
}
