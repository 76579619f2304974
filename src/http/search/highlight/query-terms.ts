/**
 * What a query asks to find, as highlighting needs it: per field (or field pattern), the words,
 * phrases, exact values and patterns of every clause that can make a document match. `must_not`
 * clauses are left out (a document is never shown because of them); ranges, `exists`, `ids` and
 * `match_all` mark nothing, as in Elasticsearch.
 */
import type { Query } from '../../../query/index.js';

export type HighlightClause =
  /** analyzed text: its tokens on a text field, the whole text on a keyword */
  | { kind: 'match'; field: string; text: string }
  /** tokens in order (at most `slop` extra positions apart); `prefix`: the last one is a prefix */
  | { kind: 'phrase'; field: string; text: string; slop: number; prefix: boolean }
  /** exact terms, not analyzed */
  | { kind: 'term'; field: string; values: string[]; caseInsensitive: boolean }
  | { kind: 'pattern'; field: string; syntax: 'prefix' | 'wildcard' | 'regexp'; pattern: string; caseInsensitive: boolean };

export function highlightClauses(query: Query): HighlightClause[] {
  const out: HighlightClause[] = [];
  collect(query, out);
  return out;
}

function collect(q: Query, out: HighlightClause[]): void {
  switch (q.kind) {
    case 'bool':
      for (const c of [...q.must, ...q.should, ...q.filter]) collect(c, out);
      return;
    case 'constant_score':
      collect(q.filter, out);
      return;
    case 'match':
      out.push({ kind: 'match', field: q.field, text: q.text });
      return;
    case 'phrase':
      out.push({ kind: 'phrase', field: q.field, text: q.text, slop: q.slop, prefix: false });
      return;
    case 'phrase_prefix':
      out.push({ kind: 'phrase', field: q.field, text: q.text, slop: 0, prefix: true });
      return;
    case 'term':
      out.push({ kind: 'term', field: q.field, values: [String(q.value)], caseInsensitive: q.caseInsensitive === true });
      return;
    case 'terms':
      out.push({ kind: 'term', field: q.field, values: q.values.map(String), caseInsensitive: false });
      return;
    case 'prefix':
      out.push({ kind: 'pattern', field: q.field, syntax: 'prefix', pattern: q.prefix, caseInsensitive: q.caseInsensitive === true });
      return;
    case 'wildcard':
      out.push({ kind: 'pattern', field: q.field, syntax: 'wildcard', pattern: q.pattern, caseInsensitive: q.caseInsensitive === true });
      return;
    case 'regexp':
      out.push({ kind: 'pattern', field: q.field, syntax: 'regexp', pattern: q.pattern, caseInsensitive: q.caseInsensitive === true });
      return;
    default:
      // match_all, match_none, range, exists, ids: nothing to mark
      return;
  }
}
