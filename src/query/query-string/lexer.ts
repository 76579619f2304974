/**
 * Splits a Lucene query string into tokens with the lexical rules of Lucene's classic query
 * parser (the one behind Elasticsearch's `query_string`): three states, DEFAULT, RANGE (inside
 * `[ ]`/`{ }`, where values are whitespace-separated "goop") and BOOST (right after `^`, where
 * only a number may follow). In DEFAULT state the longest match wins, and on a tie the earlier
 * rule: `AND` alone is the operator but `ANDROID` is a term, `&&b` is a term, `-` followed by
 * whitespace is a bare operator (a term), `foo*` is a prefix term, `f?o*` a wildcard term.
 */
import { syntaxError } from './syntax-error.js';

export type TokenKind =
  | 'and'
  | 'or'
  | 'not'
  | 'plus'
  | 'minus'
  | 'bareOperator'
  | 'lparen'
  | 'rparen'
  | 'colon'
  | 'star'
  | 'caret'
  | 'number'
  | 'quoted'
  | 'term'
  | 'prefixTerm'
  | 'wildTerm'
  | 'regexp'
  | 'fuzzy'
  | 'rangeStart'
  | 'rangeEnd'
  | 'rangeTo'
  | 'rangeValue'
  | 'rangeQuoted'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** offset of the first character */
  start: number;
  /** offset just past the last character */
  end: number;
  /** the raw text, escapes included */
  image: string;
}

const WHITESPACE = ' \t\n\r\u3000';
// characters that cannot start a term unescaped (`-` and `+` may continue one)
const NOT_TERM_START = WHITESPACE + '+-!():^[]"{}~*?\\/';

function isWhitespace(c: string): boolean {
  return WHITESPACE.includes(c);
}

function isTermStart(c: string): boolean {
  return !NOT_TERM_START.includes(c);
}

function isTermChar(c: string): boolean {
  return c === '-' || c === '+' || isTermStart(c);
}

const BOOST_NUMBER = /\d+(?:\.\d+)?/y;

export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  const n = query.length;
  let state: 'default' | 'range' | 'boost' = 'default';
  let i = 0;
  const push = (kind: TokenKind, start: number, end: number): void => {
    tokens.push({ kind, start, end, image: query.slice(start, end) });
  };

  for (;;) {
    if (state === 'boost') {
      BOOST_NUMBER.lastIndex = i;
      const m = BOOST_NUMBER.exec(query);
      if (!m) throw syntaxError(query, 'expected a number after [^]', i);
      push('number', i, i + m[0].length);
      i += m[0].length;
      state = 'default';
      continue;
    }
    while (i < n && isWhitespace(query[i]!)) i++;
    if (i >= n) {
      push('eof', n, n);
      return tokens;
    }
    const c = query[i]!;

    if (state === 'range') {
      if (c === ']' || c === '}') {
        push('rangeEnd', i, i + 1);
        i++;
        state = 'default';
      } else if (c === '"') {
        const end = scanQuoted(query, i);
        push('rangeQuoted', i, end);
        i = end;
      } else {
        let j = i;
        while (j < n && !isWhitespace(query[j]!) && query[j] !== ']' && query[j] !== '}') {
          j += query[j] === '\\' && j + 1 < n ? 2 : 1;
        }
        push(query.slice(i, j) === 'TO' ? 'rangeTo' : 'rangeValue', i, j);
        i = j;
      }
      continue;
    }

    switch (c) {
      case '(':
        push('lparen', i, ++i);
        continue;
      case ')':
        push('rparen', i, ++i);
        continue;
      case ':':
        push('colon', i, ++i);
        continue;
      case '^':
        push('caret', i, ++i);
        state = 'boost';
        continue;
      case '[':
      case '{':
        push('rangeStart', i, ++i);
        state = 'range';
        continue;
      case '"': {
        const end = scanQuoted(query, i);
        push('quoted', i, end);
        i = end;
        continue;
      }
      case '/': {
        let j = i + 1;
        while (j < n && query[j] !== '/') j += query[j] === '\\' ? 2 : 1;
        if (j >= n) throw syntaxError(query, 'unclosed regular expression', i);
        let end = j + 1;
        if (query[end] === 'i') end++;
        push('regexp', i, end);
        i = end;
        continue;
      }
      case '~': {
        let j = i + 1;
        while (j < n && (query[j] === '\\' || isTermChar(query[j]!))) j += query[j] === '\\' ? 2 : 1;
        j = Math.min(j, n);
        push('fuzzy', i, j);
        i = j;
        continue;
      }
      case '+':
      case '-':
      case '!':
        if (i + 1 < n && isWhitespace(query[i + 1]!)) {
          push('bareOperator', i, i + 2);
          i += 2;
        } else {
          push(c === '+' ? 'plus' : c === '-' ? 'minus' : 'not', i, ++i);
        }
        continue;
      default:
        break;
    }

    if (c !== '\\' && c !== '*' && c !== '?' && !isTermStart(c)) {
      throw syntaxError(query, `unexpected character [${c}]`, i);
    }
    // one word: the longest run that a TERM, PREFIXTERM or WILDTERM rule could match
    const wildcards: number[] = [];
    let j = i;
    while (j < n) {
      const ch = query[j]!;
      if (ch === '\\') {
        if (j + 1 >= n) throw syntaxError(query, 'escape character at end of query', j);
        j += 2;
      } else if (ch === '*' || ch === '?') {
        wildcards.push(j);
        j++;
      } else if (j === i ? isTermStart(ch) : isTermChar(ch)) {
        j++;
      } else {
        break;
      }
    }
    push(classifyWord(query.slice(i, j), wildcards, i, j), i, j);
    i = j;
  }
}

function classifyWord(image: string, wildcards: number[], start: number, end: number): TokenKind {
  if (image === 'AND' || image === '&&') return 'and';
  if (image === 'OR' || image === '||') return 'or';
  if (image === 'NOT') return 'not';
  if (image === '*') return 'star';
  if (wildcards.length === 0) return 'term';
  if (wildcards.length === 1 && wildcards[0] === end - 1 && image.endsWith('*') && end - 1 > start) return 'prefixTerm';
  return 'wildTerm';
}

/** Offset just past the closing quote of the quoted string opening at `start`. */
function scanQuoted(query: string, start: number): number {
  let j = start + 1;
  while (j < query.length && query[j] !== '"') j += query[j] === '\\' ? 2 : 1;
  if (j >= query.length) throw syntaxError(query, 'unclosed quote', start);
  return j + 1;
}
