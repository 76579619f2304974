/**
 * Wildcard and Lucene regular-expression patterns as anchored JS RegExps, with the literal
 * prefix every matching term starts with (so that a term dictionary scan can start there and
 * stop as soon as the prefix no longer matches).
 */
import { BadRequestError } from '../../common/errors.js';

export interface CompiledPattern {
  regex: RegExp;
  /** every match starts with this; '' when the pattern starts with an operator */
  prefix: string;
}

// characters that must be escaped outside a class in a `u`-flag RegExp
const SYNTAX = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/']);
const ANY = '[\\s\\S]';

function escapeLiteral(ch: string): string {
  return SYNTAX.has(ch) ? '\\' + ch : ch;
}

function escapeInClass(ch: string): string {
  return ch === '\\' || ch === ']' || ch === '[' || ch === '^' || ch === '-' ? '\\' + ch : ch;
}

function anchored(source: string, caseInsensitive: boolean): RegExp {
  return new RegExp('^(?:' + source + ')$', caseInsensitive ? 'iu' : 'u');
}

/** `*` any run, `?` one character, `\` escapes the next character. */
export function compileWildcard(pattern: string, caseInsensitive: boolean): CompiledPattern {
  const chars = Array.from(pattern);
  let source = '';
  let prefix = '';
  let literal = true;
  for (let i = 0; i < chars.length; i++) {
    let ch = chars[i]!;
    if (ch === '*' || ch === '?') {
      source += ch === '*' ? ANY + '*' : ANY;
      literal = false;
      continue;
    }
    if (ch === '\\' && i + 1 < chars.length) ch = chars[++i]!;
    source += escapeLiteral(ch);
    if (literal) prefix += ch;
  }
  return { regex: anchored(source, caseInsensitive), prefix: caseInsensitive ? '' : prefix };
}

/** True when the wildcard pattern is only `*`s: it matches every term of the field. */
export function isMatchAllWildcard(pattern: string): boolean {
  return pattern.length > 0 && /^\*+$/.test(pattern);
}

type RegexNode =
  | { t: 'lit'; text: string }
  | { t: 'raw'; source: string }
  | { t: 'concat'; items: RegexNode[] }
  | { t: 'union'; alts: RegexNode[] };

function unsupported(pattern: string, what: string): BadRequestError {
  return new BadRequestError(`regexp [${pattern}]: ${what} is not supported`, 'query_shard_exception');
}

function malformed(pattern: string, what: string): BadRequestError {
  return new BadRequestError(`invalid regexp [${pattern}]: ${what}`, 'query_shard_exception');
}

/**
 * Recursive-descent reader of Lucene's RegExp syntax (flags ALL, the Elasticsearch default):
 * `|`, concatenation, `? * + {n} {n,} {n,m}`, `[...]` and `[^...]` classes with ranges, `.`,
 * `"literal"`, `( )`, `\` escapes (any escaped character is literal), `@` any string, `#` the
 * empty language. Intersection `&`, complement `~` and `<n-m>` intervals are rejected.
 */
class LuceneRegexReader {
  private pos = 0;
  private readonly chars: string[];

  constructor(private readonly pattern: string) {
    this.chars = Array.from(pattern);
  }

  read(): RegexNode {
    const node = this.union();
    if (this.pos < this.chars.length) throw malformed(this.pattern, `unexpected [${this.chars[this.pos]}]`);
    return node;
  }

  private peek(): string | undefined {
    return this.chars[this.pos];
  }

  private union(): RegexNode {
    const alts = [this.concat()];
    while (this.peek() === '|') {
      this.pos++;
      alts.push(this.concat());
    }
    return alts.length === 1 ? alts[0]! : { t: 'union', alts };
  }

  private concat(): RegexNode {
    const items: RegexNode[] = [];
    for (;;) {
      const ch = this.peek();
      if (ch === undefined || ch === '|' || ch === ')') break;
      if (ch === '&') throw unsupported(this.pattern, 'intersection [&]');
      items.push(this.repeat());
    }
    return { t: 'concat', items };
  }

  private repeat(): RegexNode {
    let node = this.simple();
    for (;;) {
      const ch = this.peek();
      let quantifier: string;
      if (ch === '?' || ch === '*' || ch === '+') {
        this.pos++;
        quantifier = ch;
      } else if (ch === '{') {
        quantifier = this.braces();
      } else break;
      node = { t: 'raw', source: '(?:' + toSource(node) + ')' + quantifier };
    }
    return node;
  }

  private braces(): string {
    const start = this.pos;
    this.pos++;
    let text = '';
    while (this.peek() !== undefined && this.peek() !== '}') text += this.chars[this.pos++];
    if (this.peek() !== '}' || !/^\d+(,\d*)?$/.test(text)) {
      throw malformed(this.pattern, `bad repetition at position ${start}`);
    }
    this.pos++;
    const [min, max] = text.split(',');
    if (max !== undefined && max !== '' && Number(max) < Number(min)) {
      throw malformed(this.pattern, `bad repetition at position ${start}`);
    }
    return '{' + text + '}';
  }

  private simple(): RegexNode {
    const ch = this.chars[this.pos++];
    switch (ch) {
      case undefined:
        throw malformed(this.pattern, 'unexpected end');
      case '~':
        throw unsupported(this.pattern, 'complement [~]');
      case '<':
        throw unsupported(this.pattern, 'interval or named automaton [<...>]');
      case '.':
        return { t: 'raw', source: ANY };
      case '@':
        return { t: 'raw', source: ANY + '*' };
      case '#':
        return { t: 'raw', source: '(?!)' };
      case '[':
        return this.charClass();
      case '"': {
        let text = '';
        while (this.peek() !== undefined && this.peek() !== '"') text += this.chars[this.pos++];
        if (this.peek() !== '"') throw malformed(this.pattern, 'unterminated string');
        this.pos++;
        return { t: 'lit', text };
      }
      case '(': {
        if (this.peek() === ')') {
          this.pos++;
          return { t: 'raw', source: '(?:)' };
        }
        const inner = this.union();
        if (this.peek() !== ')') throw malformed(this.pattern, 'missing [)]');
        this.pos++;
        return { t: 'raw', source: '(?:' + toSource(inner) + ')' };
      }
      case ')':
      case '{':
      case '}':
      case '?':
      case '*':
      case '+':
      case ']':
        throw malformed(this.pattern, `unexpected [${ch}]`);
      case '\\': {
        const next = this.chars[this.pos++];
        if (next === undefined) throw malformed(this.pattern, 'trailing [\\]');
        return { t: 'lit', text: next };
      }
      default:
        return { t: 'lit', text: ch };
    }
  }

  private classChar(): string {
    const ch = this.chars[this.pos++];
    if (ch === undefined) throw malformed(this.pattern, 'unterminated character class');
    if (ch === '\\') {
      const next = this.chars[this.pos++];
      if (next === undefined) throw malformed(this.pattern, 'trailing [\\]');
      return next;
    }
    return ch;
  }

  private charClass(): RegexNode {
    let source = '[';
    if (this.peek() === '^') {
      this.pos++;
      source += '^';
    }
    let items = 0;
    while (this.peek() !== ']') {
      if (this.peek() === undefined) throw malformed(this.pattern, 'unterminated character class');
      const from = this.classChar();
      if (this.peek() === '-' && this.chars[this.pos + 1] !== ']' && this.chars[this.pos + 1] !== undefined) {
        this.pos++;
        const to = this.classChar();
        if (to.codePointAt(0)! < from.codePointAt(0)!) throw malformed(this.pattern, `bad range [${from}-${to}]`);
        source += escapeInClass(from) + '-' + escapeInClass(to);
      } else source += escapeInClass(from);
      items++;
    }
    this.pos++;
    if (items === 0) throw malformed(this.pattern, 'empty character class');
    return { t: 'raw', source: source + ']' };
  }
}

function toSource(node: RegexNode): string {
  switch (node.t) {
    case 'lit':
      return Array.from(node.text, escapeLiteral).join('');
    case 'raw':
      return node.source;
    case 'concat':
      return node.items.map(toSource).join('');
    case 'union':
      return node.alts.map((a) => '(?:' + toSource(a) + ')').join('|');
  }
}

function literalPrefix(node: RegexNode): string {
  if (node.t === 'lit') return node.text;
  if (node.t !== 'concat') return '';
  let prefix = '';
  for (const item of node.items) {
    if (item.t !== 'lit') break;
    prefix += item.text;
  }
  return prefix;
}

/** Lucene regexp syntax, anchored at both ends; throws 400 on syntax it does not support. */
export function compileLuceneRegexp(pattern: string, caseInsensitive: boolean): CompiledPattern {
  const node = new LuceneRegexReader(pattern).read();
  let regex: RegExp;
  try {
    regex = anchored(toSource(node), caseInsensitive);
  } catch {
    throw malformed(pattern, 'cannot be compiled');
  }
  return { regex, prefix: caseInsensitive ? '' : literalPrefix(node) };
}
