/**
 * Lucene query-string syntax → query AST, following Elasticsearch 7.10's `query_string`.
 *
 * Grammar (Lucene's classic parser):
 *   Query  ::= Modifier? Clause ( Conjunction? Modifier? Clause )*
 *   Clause ::= ( TERM ":" | "*" ":" )? ( Term | "(" Query ")" ( "^" NUMBER )? )
 *   Term   ::= word ( "~" slop )? ( "^" NUMBER )? | "\"phrase\"" ( "~" slop )? ( "^" NUMBER )?
 *            | ( "[" | "{" ) value "TO" value ( "]" | "}" ) ( "^" NUMBER )?
 *
 * How AND, OR and the default operator mix (Lucene's `addClause`, which Elasticsearch uses
 * unchanged): clauses are read left to right into one flat list; there is no precedence.
 *   - a clause joined by AND makes itself and the clause before it required (unless that one
 *     is prohibited);
 *   - with default operator AND, a clause joined by OR makes itself and the clause before it
 *     optional (unless prohibited); a clause with no conjunction is required;
 *   - with default operator OR, a clause with no conjunction or joined by OR is optional;
 *   - `+` makes a clause required, `-`, `!` and `NOT` prohibited.
 * So with default OR: `a AND b OR c` is `+a +b c` (c only scores), `a OR b AND c` is `a +b +c`,
 * `a b -c` is `a b -c` (one of a, b must match, c must not); with default AND: `a b` is `+a +b`,
 * `a OR b` is `a b`, `a OR b c` is `a b +c`. A flat list of optional and prohibited clauses
 * needs one optional clause to match; with a required clause the optional ones only score.
 */
import { DEFAULT_FIELD, type Query, type RawValue } from '../ast.js';
import { boolQuery, onFields, parseFieldSpecs, withBoost, type WeightedField } from '../build.js';
import { unescapeTerm, wildcardPattern } from './escapes.js';
import { tokenize, type Token, type TokenKind } from './lexer.js';
import { syntaxError } from './syntax-error.js';

export interface QueryStringOptions {
  /** Fields a term without `field:` searches, `name^boost` allowed; default `[_line]`. */
  defaultFields?: string[];
  defaultOperator?: 'or' | 'and';
  /** Marks match, phrase and range queries lenient: values the field's type cannot read match nothing. */
  lenient?: boolean;
  /** Slop of a quoted phrase without `~N` (Elasticsearch `phrase_slop`), default 0. */
  phraseSlop?: number;
  /** `*foo` and `?oo` allowed (default true). */
  allowLeadingWildcard?: boolean;
  /** Time zone put on every range (`time_zone`). */
  timeZone?: string;
}

type Occur = 'must' | 'should' | 'mustNot';
type Conjunction = 'none' | 'and' | 'or';
type Modifier = 'none' | 'required' | 'prohibited';

interface Clause {
  occur: Occur;
  query: Query;
}

const TERM_START: ReadonlySet<TokenKind> = new Set<TokenKind>([
  'bareOperator',
  'lparen',
  'star',
  'quoted',
  'term',
  'prefixTerm',
  'wildTerm',
  'regexp',
  'rangeStart',
]);

/** a clause is a term, possibly after a boolean operator or a +/- modifier */
const CLAUSE_START: ReadonlySet<TokenKind> = new Set<TokenKind>([...TERM_START, 'and', 'or', 'not', 'plus', 'minus']);

const RANGE_BOUND: ReadonlySet<TokenKind> = new Set<TokenKind>(['rangeValue', 'rangeQuoted', 'rangeTo']);

const COMPARISON = /^(?:>=|<=|>|<)/;

/** Deeper nesting of parentheses is refused before it can exhaust the stack. */
export const MAX_GROUP_DEPTH = 256;

/**
 * Parses a Lucene query string. An empty (or blank) string matches everything; a syntax error
 * throws `ParsingError` (`query_shard_exception`) with the offset in `details.position`.
 */
export function parseQueryString(query: string, options: QueryStringOptions = {}): Query {
  return new QueryStringParser(query, options).parse();
}

class QueryStringParser {
  private readonly tokens: Token[];
  private pos = 0;
  private depth = 0;
  private readonly fields: WeightedField[];
  private readonly operator: 'or' | 'and';

  constructor(
    private readonly query: string,
    private readonly options: QueryStringOptions,
  ) {
    this.tokens = tokenize(query);
    this.fields = parseFieldSpecs(options.defaultFields?.length ? options.defaultFields : [DEFAULT_FIELD]);
    this.operator = options.defaultOperator ?? 'or';
  }

  parse(): Query {
    if (this.peek().kind === 'eof') return { kind: 'match_all' };
    const q = this.parseQuery(null);
    const t = this.peek();
    if (t.kind !== 'eof') throw this.unexpected(t);
    // everything was a bare operator that analyzes to nothing: Lucene's empty boolean query
    return q ?? { kind: 'match_none' };
  }

  // ---- grammar ----

  private parseQuery(field: string | null): Query | null {
    const clauses: Clause[] = [];
    let mods = this.parseModifier();
    let q = this.parseClause(field);
    this.addClause(clauses, 'none', mods, q);
    const first = mods === 'none' ? q : null;
    while (CLAUSE_START.has(this.peek().kind)) {
      const conj = this.parseConjunction();
      mods = this.parseModifier();
      q = this.parseClause(field);
      this.addClause(clauses, conj, mods, q);
    }
    if (clauses.length === 1 && first !== null) return first;
    return booleanOf(clauses);
  }

  private parseConjunction(): Conjunction {
    const kind = this.peek().kind;
    if (kind === 'and' || kind === 'or') {
      this.pos++;
      return kind;
    }
    return 'none';
  }

  private parseModifier(): Modifier {
    const kind = this.peek().kind;
    if (kind === 'plus') {
      this.pos++;
      return 'required';
    }
    if (kind === 'minus' || kind === 'not') {
      this.pos++;
      return 'prohibited';
    }
    return 'none';
  }

  private parseClause(field: string | null): Query | null {
    let t = this.peek();
    if ((t.kind === 'term' || t.kind === 'star') && this.peek(1).kind === 'colon') {
      field = t.kind === 'star' ? '*' : unescapeTerm(t.image);
      this.pos += 2;
      t = this.peek();
      if (!TERM_START.has(t.kind)) {
        throw syntaxError(this.query, `missing value for field [${field}]`, t.start);
      }
    }
    if (t.kind !== 'lparen') return this.parseTerm(field);
    this.pos++;
    if (++this.depth > MAX_GROUP_DEPTH) {
      throw syntaxError(this.query, `more than ${MAX_GROUP_DEPTH} nested groups`, t.start);
    }
    const inner = this.parseQuery(field);
    this.depth--;
    const close = this.peek();
    if (close.kind === 'eof') throw syntaxError(this.query, 'missing closing parenthesis for [(]', t.start);
    if (close.kind !== 'rparen') throw this.unexpected(close);
    this.pos++;
    return boosted(inner, this.parseOptionalBoost());
  }

  private parseTerm(field: string | null): Query | null {
    const t = this.next();
    switch (t.kind) {
      case 'term':
      case 'star':
      case 'prefixTerm':
      case 'wildTerm':
      case 'regexp':
      case 'bareOperator': {
        const quotedBound = this.comparisonWithQuotedValue(t);
        if (quotedBound !== undefined) {
          return boosted(this.comparison(field, t.image, quotedBound), this.parseOptionalBoost());
        }
        const { fuzzy, boost } = this.parseSuffixes();
        return boosted(this.bareToken(field, t, fuzzy), boost);
      }
      case 'quoted': {
        const { fuzzy, boost } = this.parseSuffixes();
        return boosted(this.quoted(field, t, fuzzy), boost);
      }
      case 'rangeStart':
        return this.parseRange(field, t);
      case 'eof':
        throw syntaxError(this.query, 'unexpected end of query', t.start);
      default:
        throw this.unexpected(t);
    }
  }

  /** `~N` and `^N` after a term, in either order. */
  private parseSuffixes(): { fuzzy?: Token; boost?: number } {
    let fuzzy: Token | undefined;
    let boost: number | undefined;
    if (this.peek().kind === 'caret') {
      boost = this.parseOptionalBoost();
      if (this.peek().kind === 'fuzzy') fuzzy = this.next();
    } else if (this.peek().kind === 'fuzzy') {
      fuzzy = this.next();
      boost = this.parseOptionalBoost();
    }
    return fuzzy ? { fuzzy, boost } : { boost };
  }

  private parseOptionalBoost(): number | undefined {
    if (this.peek().kind !== 'caret') return undefined;
    this.pos++;
    // the lexer guarantees a number after `^`
    return Number(this.next().image);
  }

  private parseRange(field: string | null, open: Token): Query | null {
    const lower = this.rangeBound(open, 'lower');
    const to = this.next();
    if (to.kind === 'eof') throw syntaxError(this.query, 'missing closing bracket for range', open.start);
    if (to.kind !== 'rangeTo') throw syntaxError(this.query, 'expected [TO] in range', to.start);
    const upper = this.rangeBound(open, 'upper');
    const close = this.next();
    if (close.kind === 'eof') throw syntaxError(this.query, 'missing closing bracket for range', open.start);
    if (close.kind !== 'rangeEnd') throw syntaxError(this.query, `unexpected [${close.image}] in range`, close.start);
    const boost = this.parseOptionalBoost();
    const lowerInclusive = open.image === '[';
    const upperInclusive = close.image === ']';
    return withBoost(
      this.onFields(field, (f) => this.range(f, lower, lowerInclusive, upper, upperInclusive)),
      boost,
    );
  }

  /** A range bound, or null for an open end (`*`). */
  private rangeBound(open: Token, which: 'lower' | 'upper'): string | null {
    const t = this.next();
    if (t.kind === 'eof') throw syntaxError(this.query, 'missing closing bracket for range', open.start);
    if (!RANGE_BOUND.has(t.kind)) throw syntaxError(this.query, `missing ${which} bound of range`, t.start);
    if (t.kind === 'rangeQuoted') return unescapeTerm(t.image.slice(1, -1));
    if (t.image === '*') return null;
    return unescapeTerm(t.image);
  }

  // ---- building queries ----

  private bareToken(field: string | null, t: Token, fuzzy: Token | undefined): Query | null {
    if (fuzzy) {
      throw syntaxError(this.query, `fuzzy queries are not supported [${t.image}${fuzzy.image}]`, fuzzy.start);
    }
    switch (t.kind) {
      case 'bareOperator': {
        // a lone `+`, `-` or `!` analyzes to nothing on the default field and is dropped, as in Lucene
        if (field === null) return null;
        const text = t.image[0]!;
        return this.onFields(field, (f) => this.match(f, text));
      }
      case 'star':
        return this.star(field);
      case 'term': {
        const text = unescapeTerm(t.image);
        if (field === '_exists_') return { kind: 'exists', field: text };
        const op = COMPARISON.exec(t.image);
        if (op && t.image.length > op[0].length) {
          return this.comparison(field, op[0], unescapeTerm(t.image.slice(op[0].length)));
        }
        return this.onFields(field, (f) => this.match(f, text));
      }
      case 'prefixTerm': {
        const prefix = unescapeTerm(t.image.slice(0, -1));
        return this.onFields(field, (f) => ({ kind: 'prefix', field: f, prefix }));
      }
      case 'wildTerm': {
        if (/^\*+$/.test(t.image)) return this.star(field);
        if (this.options.allowLeadingWildcard === false && (t.image[0] === '*' || t.image[0] === '?')) {
          throw syntaxError(this.query, `leading wildcard is not allowed [${t.image}]`, t.start);
        }
        const pattern = wildcardPattern(t.image);
        return this.onFields(field, (f) => ({ kind: 'wildcard', field: f, pattern }));
      }
      case 'regexp': {
        const caseInsensitive = t.image.endsWith('/i') && t.image.length > 2 && t.end - t.start > 2;
        const pattern = t.image.slice(1, caseInsensitive ? -2 : -1);
        return this.onFields(field, (f) =>
          caseInsensitive ? { kind: 'regexp', field: f, pattern, caseInsensitive } : { kind: 'regexp', field: f, pattern },
        );
      }
      default:
        throw this.unexpected(t);
    }
  }

  /** `*` alone or `*:*` matches everything; `field:*` means the field has a value. */
  private star(field: string | null): Query {
    if (field === null || field === '*' || field === '_exists_') return { kind: 'match_all' };
    return { kind: 'exists', field };
  }

  private quoted(field: string | null, t: Token, fuzzy: Token | undefined): Query | null {
    const text = unescapeTerm(t.image.slice(1, -1));
    if (field === '_exists_') return { kind: 'exists', field: text };
    let slop = this.options.phraseSlop ?? 0;
    if (fuzzy) {
      const written = Number(fuzzy.image.slice(1));
      if (fuzzy.image.length > 1 && Number.isFinite(written)) slop = Math.max(0, Math.trunc(written));
    }
    return this.onFields(field, (f) => {
      if (f === '_id') return { kind: 'ids', values: [text] };
      const phrase: Query = { kind: 'phrase', field: f, text, slop };
      return this.options.lenient ? { ...phrase, lenient: true } : phrase;
    });
  }

  /**
   * `>=500` style one-sided ranges, Elasticsearch's extension to the Lucene syntax. Also
   * accepted: the value quoted right after the operator (`_ts:>="2024-01-01T10:00:00"`), which
   * saves escaping the colons of a time.
   */
  private comparison(field: string | null, op: string, value: string): Query {
    return this.onFields(field, (f) => {
      switch (op) {
        case '>=':
          return this.range(f, value, true, null, false);
        case '>':
          return this.range(f, value, false, null, false);
        case '<=':
          return this.range(f, null, false, value, true);
        default:
          return this.range(f, null, false, value, false);
      }
    });
  }

  private comparisonWithQuotedValue(t: Token): string | undefined {
    if (t.kind !== 'term' || !/^(?:>=|<=|>|<)$/.test(t.image)) return undefined;
    const next = this.peek();
    if (next.kind !== 'quoted' || next.start !== t.end) return undefined;
    this.pos++;
    return unescapeTerm(next.image.slice(1, -1));
  }

  private range(
    field: string,
    lower: RawValue | null,
    lowerInclusive: boolean,
    upper: RawValue | null,
    upperInclusive: boolean,
  ): Query {
    // both ends open: every document with a value, as Elasticsearch rewrites it
    if (lower === null && upper === null) return { kind: 'exists', field };
    const q: Query = { kind: 'range', field };
    if (lower !== null) q[lowerInclusive ? 'gte' : 'gt'] = lower;
    if (upper !== null) q[upperInclusive ? 'lte' : 'lt'] = upper;
    if (this.options.timeZone !== undefined) q.timeZone = this.options.timeZone;
    if (this.options.lenient) q.lenient = true;
    return q;
  }

  private match(field: string, text: string): Query {
    if (field === '_id') return { kind: 'ids', values: [text] };
    const q: Query = { kind: 'match', field, text, operator: this.operator };
    if (this.options.lenient) q.lenient = true;
    return q;
  }

  /** A named field as written; no field (or `*`) means the default fields. */
  private onFields(field: string | null, build: (field: string) => Query): Query {
    if (field === null || field === '*') return onFields(this.fields, build);
    return build(field);
  }

  /** Lucene's `QueryParserBase.addClause`, the rule described at the top of this file. */
  private addClause(clauses: Clause[], conj: Conjunction, mods: Modifier, q: Query | null): void {
    const last = clauses[clauses.length - 1];
    if (last && conj === 'and' && last.occur !== 'mustNot') last.occur = 'must';
    if (last && this.operator === 'and' && conj === 'or' && last.occur !== 'mustNot') last.occur = 'should';
    // a clause that analyzed to nothing still changes its neighbour, then disappears
    if (q === null) return;
    const prohibited = mods === 'prohibited';
    let required: boolean;
    if (this.operator === 'or') {
      required = mods === 'required' || (conj === 'and' && !prohibited);
    } else {
      required = !prohibited && conj !== 'or';
    }
    clauses.push({ occur: prohibited ? 'mustNot' : required ? 'must' : 'should', query: q });
  }

  // ---- tokens ----

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  private unexpected(t: Token): Error {
    if (t.kind === 'eof') return syntaxError(this.query, 'unexpected end of query', t.start);
    if (t.kind === 'rparen') return syntaxError(this.query, 'unexpected [)] without a matching [(]', t.start);
    return syntaxError(this.query, `unexpected [${t.image}]`, t.start);
  }
}

function booleanOf(clauses: Clause[]): Query | null {
  if (clauses.length === 0) return null;
  const q = boolQuery({});
  for (const c of clauses) q[c.occur].push(c.query);
  return q;
}

function boosted(q: Query | null, boost: number | undefined): Query | null {
  return q === null ? null : withBoost(q, boost);
}
