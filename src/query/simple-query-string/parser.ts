/**
 * The `simple_query_string` syntax, a port of Lucene's SimpleQueryParser: `+` (AND), `|` (OR),
 * `-` (NOT, prefix), `"phrase"`, `"phrase"~N` (slop), `word*` (prefix), `( )` grouping, `\`
 * escapes, whitespace as the default operator. It never fails: a character it cannot use is
 * ignored (an unclosed quote or parenthesis is taken literally or dropped). Operators combine
 * left to right; a change of operator wraps everything so far, so `a +b | c` is `(a +b) | c`.
 * `word~N` (fuzzy) is searched as the plain word, since fuzzy matching is not implemented.
 */
import { DEFAULT_FIELD, type BoolQuery, type Query } from '../ast.js';
import { boolQuery, onFields, parseFieldSpecs, type WeightedField } from '../build.js';
import { ALL_FLAGS, SimpleFlag } from './flags.js';

export interface SimpleQueryStringOptions {
  /** `name^boost` allowed; default `[_line]`, `*` means the default field */
  fields?: string[];
  defaultOperator?: 'or' | 'and';
  /** bit mask from `parseSimpleFlags`; default all operators */
  flags?: number;
  lenient?: boolean;
}

type Occur = 'must' | 'should';

interface State {
  data: string;
  index: number;
  end: number;
  top: Query | null;
  /** our own bool at the top, once two clauses have been combined */
  previousOperation: Occur | null;
  currentOperation: Occur | null;
  not: number;
  depth: number;
}

const WHITESPACE = ' \t\n\r';

/** Parentheses nested deeper than this are ignored rather than followed. */
export const MAX_GROUP_DEPTH = 256;

/** Parses; an input with nothing searchable gives `match_none`. */
export function parseSimpleQueryString(query: string, options: SimpleQueryStringOptions = {}): Query {
  return new SimpleParser(options).parse(query);
}

class SimpleParser {
  private readonly flags: number;
  private readonly fields: WeightedField[];
  private readonly defaultOccur: Occur;

  constructor(private readonly options: SimpleQueryStringOptions) {
    this.flags = options.flags ?? ALL_FLAGS;
    this.fields = parseFieldSpecs(options.fields?.length ? options.fields : [DEFAULT_FIELD]);
    this.defaultOccur = options.defaultOperator === 'and' ? 'must' : 'should';
  }

  parse(query: string): Query {
    const state = newState(query, 0, query.length, 0);
    this.parseSubQuery(state);
    return state.top ?? { kind: 'match_none' };
  }

  private has(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  private parseSubQuery(state: State): void {
    while (state.index < state.end) {
      const c = state.data[state.index]!;
      if (c === '(' && this.has(SimpleFlag.PRECEDENCE)) {
        this.consumeSubQuery(state);
      } else if (c === ')' && this.has(SimpleFlag.PRECEDENCE)) {
        // an extra closing parenthesis is ignored
        state.index++;
      } else if (c === '"' && this.has(SimpleFlag.PHRASE)) {
        this.consumePhrase(state);
      } else if (c === '+' && this.has(SimpleFlag.AND)) {
        // an operator counts only after a clause
        if (state.currentOperation === null && state.top !== null) state.currentOperation = 'must';
        state.index++;
      } else if (c === '|' && this.has(SimpleFlag.OR)) {
        if (state.currentOperation === null && state.top !== null) state.currentOperation = 'should';
        state.index++;
      } else if (c === '-' && this.has(SimpleFlag.NOT)) {
        state.not++;
        state.index++;
        // the negation applies to what comes right after: do not reset it below
        continue;
      } else if (WHITESPACE.includes(c) && this.has(SimpleFlag.WHITESPACE)) {
        state.index++;
      } else {
        this.consumeToken(state);
      }
      state.not = 0;
    }
  }

  private consumeSubQuery(state: State): void {
    if (state.depth >= MAX_GROUP_DEPTH) {
      state.index++;
      return;
    }
    const start = ++state.index;
    let depth = 1;
    let escaped = false;
    while (state.index < state.end) {
      const c = state.data[state.index]!;
      if (!escaped) {
        if (c === '\\' && this.has(SimpleFlag.ESCAPE)) {
          escaped = true;
          state.index++;
          continue;
        } else if (c === '(') {
          depth++;
        } else if (c === ')') {
          depth--;
          if (depth === 0) break;
        }
      }
      escaped = false;
      state.index++;
    }
    if (state.index >= state.end) {
      // never closed: the opening parenthesis is dropped and what follows read normally
      state.index = start;
    } else if (state.index === start) {
      // `()`: nothing to apply the pending operator to
      state.currentOperation = null;
      state.index++;
    } else {
      const sub = newState(state.data, start, state.index, state.depth + 1);
      this.parseSubQuery(sub);
      this.buildQueryTree(state, sub.top);
      state.index++;
    }
  }

  private consumePhrase(state: State): void {
    const start = ++state.index;
    let text = '';
    let escaped = false;
    let hasSlop = false;
    while (state.index < state.end) {
      const c = state.data[state.index]!;
      if (!escaped) {
        if (c === '\\' && this.has(SimpleFlag.ESCAPE)) {
          escaped = true;
          state.index++;
          continue;
        } else if (c === '"') {
          if (state.index + 1 < state.end && state.data[state.index + 1] === '~' && this.has(SimpleFlag.NEAR)) {
            state.index++;
            if (state.index + 1 < state.end) hasSlop = true;
          }
          break;
        }
      }
      escaped = false;
      text += c;
      state.index++;
    }
    if (state.index >= state.end) {
      // never closed: the quote is dropped and the rest read as words
      state.index = start;
    } else if (state.index === start) {
      state.currentOperation = null;
      state.index++;
    } else {
      const slop = hasSlop ? this.parseFuzziness(state) : 0;
      this.buildQueryTree(state, this.phrase(text, slop));
      state.index++;
    }
  }

  private consumeToken(state: State): void {
    let text = '';
    let escaped = false;
    let prefix = false;
    let fuzzy = false;
    while (state.index < state.end) {
      const c = state.data[state.index]!;
      if (!escaped) {
        if (c === '\\' && this.has(SimpleFlag.ESCAPE)) {
          escaped = true;
          prefix = false;
          state.index++;
          continue;
        } else if (this.tokenFinished(c)) {
          break;
        } else if (text.length > 0 && c === '~' && this.has(SimpleFlag.FUZZY)) {
          fuzzy = true;
          break;
        }
        prefix = text.length > 0 && c === '*' && this.has(SimpleFlag.PREFIX);
      }
      escaped = false;
      text += c;
      state.index++;
    }
    if (text.length === 0) return;
    if (fuzzy) {
      this.parseFuzziness(state);
      this.buildQueryTree(state, this.defaultQuery(text));
    } else if (prefix) {
      const p = text.slice(0, -1);
      this.buildQueryTree(state, onFields(this.fields, (field) => ({ kind: 'prefix', field, prefix: p })));
    } else {
      this.buildQueryTree(state, this.defaultQuery(text));
    }
  }

  /** Reads `~N` (the index is on `~`); an empty or unreadable N is 2, as in Lucene. */
  private parseFuzziness(state: State): number {
    if (state.data[state.index] !== '~') return 0;
    let digits = '';
    while (state.index < state.end) {
      state.index++;
      if (state.index < state.end) {
        if (this.tokenFinished(state.data[state.index]!)) break;
        digits += state.data[state.index];
      }
    }
    if (digits === '') return 2;
    const n = /^[+-]?\d+$/.test(digits) ? Number(digits) : 0;
    return Math.max(0, n);
  }

  private tokenFinished(c: string): boolean {
    return (
      (c === '"' && this.has(SimpleFlag.PHRASE)) ||
      (c === '|' && this.has(SimpleFlag.OR)) ||
      (c === '+' && this.has(SimpleFlag.AND)) ||
      ((c === '(' || c === ')') && this.has(SimpleFlag.PRECEDENCE)) ||
      (WHITESPACE.includes(c) && this.has(SimpleFlag.WHITESPACE))
    );
  }

  private buildQueryTree(state: State, branch: Query | null): void {
    if (branch === null) return;
    if (state.not % 2 === 1) branch = boolQuery({ mustNot: [branch] });
    if (state.top === null) {
      state.top = branch;
    } else {
      const occur = state.currentOperation ?? this.defaultOccur;
      let top: BoolQuery;
      if (state.previousOperation !== occur || state.top.kind !== 'bool') {
        // a new operator: what came before becomes one clause of a new bool
        top = boolQuery({ [occur]: [state.top] });
      } else {
        top = state.top;
      }
      top[occur].push(branch);
      state.top = top;
      state.previousOperation = occur;
    }
    state.currentOperation = null;
  }

  private defaultQuery(text: string): Query {
    const operator = this.defaultOccur === 'must' ? 'and' : 'or';
    return onFields(this.fields, (field) => {
      if (field === '_id') return { kind: 'ids', values: [text] };
      const q: Query = { kind: 'match', field, text, operator };
      if (this.options.lenient) q.lenient = true;
      return q;
    });
  }

  private phrase(text: string, slop: number): Query {
    return onFields(this.fields, (field) => {
      const q: Query = { kind: 'phrase', field, text, slop };
      if (this.options.lenient) q.lenient = true;
      return q;
    });
  }
}

function newState(data: string, start: number, end: number, depth: number): State {
  return { data, index: start, end, top: null, previousOperation: null, currentOperation: null, not: 0, depth };
}
