/**
 * Which words of `_line` to mark. The service does not return highlights (`highlight` is accepted
 * and ignored), so the console finds them itself with the service's own token rule: runs of
 * letters and digits, lowercased. The terms are the query's words that search `_line` and are
 * not negated; `*` and `?` wildcards are honoured.
 */

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const OPERATORS = new Set(['AND', 'OR', 'NOT', 'TO']);

/** Matchers for the words of `query` that search `_line` (the default field). */
export function highlightTerms(query: string): RegExp[] {
  const terms: RegExp[] = [];
  // a clause: optional sign, optional field name, then a phrase, a range or a bare term
  const clause = /([+\-!]?)(?:([\w.@]+):)?("(?:[^"\\]|\\.)*"|[[{][^\]}]*[\]}]|\/(?:[^/\\]|\\.)*\/|[^\s()"]+)/g;
  let negateNext = false;
  for (const m of query.matchAll(clause)) {
    const [, sign, field, value] = m as unknown as [string, string, string | undefined, string];
    if (field === undefined && OPERATORS.has(value)) {
      negateNext = value === 'NOT';
      continue;
    }
    const negated = negateNext || sign === '-' || sign === '!';
    negateNext = false;
    if (negated || (field !== undefined && field !== '_line') || /^[[{/]/.test(value)) continue;
    const text = value.startsWith('"') ? value.slice(1, -1) : value;
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}\p{M}*?]+/u)) {
      if (word === '' || /^[*?]+$/.test(word)) continue;
      const pattern = word.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\p{L}\\p{N}\\p{M}]*').replace(/\?/g, '[\\p{L}\\p{N}\\p{M}]');
      terms.push(new RegExp(`^${pattern}$`, 'u'));
    }
  }
  return terms;
}

export type Piece = { text: string; match: boolean };

/** `line` cut into pieces, the tokens that match one of `terms` marked. */
export function highlightPieces(line: string, terms: RegExp[]): Piece[] {
  if (terms.length === 0) return [{ text: line, match: false }];
  const pieces: Piece[] = [];
  let last = 0;
  for (const m of line.matchAll(TOKEN)) {
    const token = m[0];
    if (!terms.some((t) => t.test(token.toLowerCase()))) continue;
    const at = m.index ?? 0;
    if (at > last) pieces.push({ text: line.slice(last, at), match: false });
    pieces.push({ text: token, match: true });
    last = at + token.length;
  }
  if (last < line.length) pieces.push({ text: line.slice(last), match: false });
  return pieces;
}
