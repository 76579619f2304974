/**
 * Binds a query to one segment: each AST node becomes a plan node according to the type its
 * field has in that segment (see the folder's index.ts for the per-kind rules).
 */
import { BadRequestError } from '../../common/errors.js';
import { clientKey, parseGeneratedId } from '../../common/ids.js';
import type {
  BoolQuery,
  ExistsQuery,
  MatchQuery,
  PhrasePrefixQuery,
  PhraseQuery,
  PrefixQuery,
  Query,
  RangeQuery,
  RawValue,
  RegexpQuery,
  TermQuery,
  TermsQuery,
  WildcardQuery,
} from '../../query/index.js';
import { resolveMinimumShouldMatch } from '../../query/index.js';
import { analyzerFor } from '../analysis/index.js';
import type { FieldType, PositionPostings, SegmentReader } from '../segment-reader.js';
import type { Deadline } from './deadline.js';
import { EMPTY_DOCS, clip, unionMany } from './doc-set.js';
import { resolveFieldName } from './field-names.js';
import { compileLuceneRegexp, compileWildcard, isMatchAllWildcard } from './patterns.js';
import { NONE, type PlanNode } from './plan-node.js';
import { expandTerms, termsInRange } from './term-expansion.js';
import { valueBound } from '../segment/points-index.js';
import { type DateOptions, invalidValue, toBoolean, toDate, toNumber } from './value-parse.js';

export interface PlanContext {
  segment: SegmentReader;
  /** docs at or above this id are invisible */
  limit: number;
  /** name of the index the segment belongs to (`_index` queries) */
  index: string;
  nowMs: number;
  deadline: Deadline;
}

/** How a field behaves in one segment: its stored type, or one of the built-in fields. */
type FieldKind = FieldType | '_ts' | '_lid' | '_id' | '_index';

interface Leaf {
  ctx: PlanContext;
  field: string;
  kind: FieldKind;
  /** values that do not fit the field's type give no docs instead of a 400 */
  lenient: boolean;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function fieldKind(segment: SegmentReader, field: string): FieldKind | undefined {
  switch (field) {
    case '_ts':
    case '_lid':
    case '_id':
    case '_index':
      return field;
    default:
      return segment.fieldType(field);
  }
}

function globToRegExp(glob: string): RegExp {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp('^' + source + '$');
}

/** Plans a leaf on its field; a field name with `*` stands for every matching field of the segment. */
function onField(ctx: PlanContext, name: string, build: (leaf: Leaf) => PlanNode): PlanNode {
  const field = resolveFieldName(ctx.segment, name);
  const kind = fieldKind(ctx.segment, field);
  if (kind !== undefined) return build({ ctx, field, kind, lenient: false });
  if (!field.includes('*')) return NONE;
  const re = globToRegExp(field);
  const nodes: PlanNode[] = [];
  for (const info of ctx.segment.fields()) {
    if (re.test(info.name)) nodes.push(build({ ctx, field: info.name, kind: info.type, lenient: true }));
  }
  return anyOf(nodes, 1);
}

function anyOf(nodes: PlanNode[], boost: number): PlanNode {
  const live = nodes.filter((n) => n.op !== 'none');
  if (live.length === 0) return NONE;
  if (live.length === 1 && boost === 1) return live[0]!;
  return { op: 'bool', must: [], filter: [], should: live, mustNot: [], minimumShouldMatch: 1, boost };
}

function lenientIf(leaf: Leaf, lenient: boolean | undefined): Leaf {
  return lenient === true && !leaf.lenient ? { ...leaf, lenient: true } : leaf;
}

function rejectOrNone(leaf: Leaf, error: BadRequestError): PlanNode {
  if (leaf.lenient) return NONE;
  throw error;
}

function postingsOf(ctx: PlanContext, field: string, term: string): Uint32Array {
  const docs = ctx.segment.postings(field, term);
  return docs === null ? EMPTY_DOCS : clip(docs, ctx.limit);
}

function termsUnion(ctx: PlanContext, field: string, terms: readonly string[], boost: number): PlanNode {
  const lists: Uint32Array[] = [];
  for (const t of terms) {
    const docs = postingsOf(ctx, field, t);
    if (docs.length > 0) lists.push(docs);
  }
  return lists.length === 0 ? NONE : { op: 'union', lists, boost };
}

function existsNode(ctx: PlanContext, field: string, kind: FieldKind, boost = 1): PlanNode {
  if (kind === '_ts' || kind === '_lid' || kind === '_id' || kind === '_index') return { op: 'all', boost };
  const docs = clip(ctx.segment.exists(field), ctx.limit);
  return docs.length === 0 ? NONE : { op: 'union', lists: [docs], boost };
}

function columnRange(
  ctx: PlanContext,
  field: string,
  lo: number,
  loInclusive: boolean,
  hi: number,
  hiInclusive: boolean,
  boost: number,
): PlanNode {
  if (lo > hi || (lo === hi && !(loInclusive && hiInclusive))) return NONE;
  if (field === '_ts') {
    // segment bounds answer most time filters without reading the column
    const { minTs, maxTs } = ctx.segment;
    if (hi < minTs || (hi === minTs && !hiInclusive) || lo > maxTs || (lo === maxTs && !loInclusive)) return NONE;
    const coversLow = lo < minTs || (lo === minTs && loInclusive);
    const coversHigh = hi > maxTs || (hi === maxTs && hiInclusive);
    if (coversLow && coversHigh) return { op: 'all', boost };
  }
  const column = ctx.segment.numeric(field);
  if (column === null) return NONE;
  return { op: 'column_range', column, lo, loInclusive, hi, hiInclusive, points: pointsInRange(ctx, field, lo, loInclusive, hi, hiInclusive), boost };
}

/**
 * The docs of the points index inside the bounds, when the segment has one and they are few
 * enough (a quarter of the docs) that taking them beats reading the whole column.
 */
function pointsInRange(ctx: PlanContext, field: string, lo: number, loInclusive: boolean, hi: number, hiInclusive: boolean): Uint32Array | null {
  // `_ts` and `_lid` hold a distinct value per doc, nearly in doc order: their index would cost
  // a new segment's first time filter about 100 ms to build, where segment bounds already skip
  // or take whole segments and leave one partial segment to scan
  if (ctx.segment.pointsIndex === undefined || field === '_ts' || field === '_lid') return null;
  const index = ctx.segment.pointsIndex(field);
  if (index === null) return null;
  const from = valueBound(index.values, lo, !loInclusive);
  const to = Math.max(from, valueBound(index.values, hi, hiInclusive));
  if ((to - from) * 4 > ctx.limit) return null;
  return index.docs.subarray(from, to);
}


function dateOptions(ctx: PlanContext, q?: RangeQuery): DateOptions {
  const opts: DateOptions = { nowMs: ctx.nowMs };
  if (q?.format !== undefined) opts.format = q.format;
  if (q?.timeZone !== undefined) opts.timeZone = q.timeZone;
  return opts;
}

/** The 64-bit keys an `ids` query's values stand for, as words: worked out once per query, not per segment (a client id's key is a SHA-256). */
const wantedKeys = new WeakMap<readonly RawValue[], { lo: Uint32Array; hi: Uint32Array }>();

function keysOf(values: readonly RawValue[]): { lo: Uint32Array; hi: Uint32Array } {
  let keys = wantedKeys.get(values);
  if (keys !== undefined) return keys;
  const wanted: bigint[] = [];
  for (const v of values) {
    const s = String(v);
    // a decimal text may be a generated id or a client-supplied one
    const generated = parseGeneratedId(s.trim());
    if (generated !== undefined) wanted.push(generated);
    wanted.push(clientKey(s));
  }
  keys = { lo: new Uint32Array(wanted.length), hi: new Uint32Array(wanted.length) };
  for (let i = 0; i < wanted.length; i++) {
    keys.lo[i] = Number(wanted[i]! & 0xffffffffn);
    keys.hi[i] = Number(wanted[i]! >> 32n);
  }
  wantedKeys.set(values, keys);
  return keys;
}

function idsNode(ctx: PlanContext, values: readonly RawValue[], boost: number): PlanNode {
  const { lo, hi } = keysOf(values);
  if (lo.length === 0) return NONE;
  const ids = ctx.segment.ids();
  const words = new Uint32Array(ids.buffer, ids.byteOffset, ids.length * 2);
  return { op: 'ids', words, wantedLo: lo, wantedHi: hi, littleEndian: LITTLE_ENDIAN, boost };
}

/** Equality on one value, not analyzed: the core of term, terms and non-text match. */
function exactValue(leaf: Leaf, value: RawValue, caseInsensitive: boolean, boost: number): PlanNode {
  const { ctx, field, kind } = leaf;
  switch (kind) {
    case 'text': {
      const token = String(value);
      return termsUnion(ctx, field, [caseInsensitive ? token.toLowerCase() : token], boost);
    }
    case 'keyword': {
      const text = String(value);
      if (!caseInsensitive) return termsUnion(ctx, field, [text], boost);
      const lower = text.toLowerCase();
      const terms = expandTerms(ctx.segment, field, {
        prefix: '',
        accept: (t) => t.toLowerCase() === lower,
        cap: Infinity,
        what: 'term',
        deadline: ctx.deadline,
      });
      return termsUnion(ctx, field, terms, boost);
    }
    case 'boolean': {
      const b = toBoolean(value);
      if (b === undefined) return rejectOrNone(leaf, invalidValue(value, field, 'boolean'));
      return termsUnion(ctx, field, [b ? 'true' : 'false'], boost);
    }
    case 'long':
    case 'double':
    case '_lid': {
      const n = toNumber(value);
      if (n === undefined) return rejectOrNone(leaf, invalidValue(value, field, 'numeric'));
      return columnRange(ctx, field, n, true, n, true, boost);
    }
    case 'date':
    case '_ts': {
      let lo: number;
      let hi: number;
      try {
        lo = toDate(value, dateOptions(ctx), false);
        hi = toDate(value, dateOptions(ctx), true);
      } catch (err) {
        if (err instanceof BadRequestError) return rejectOrNone(leaf, err);
        throw err;
      }
      return columnRange(ctx, field, lo, true, hi, true, boost);
    }
    case '_id':
      return idsNode(ctx, [value], boost);
    case '_index':
      return String(value) === ctx.index ? { op: 'all', boost } : NONE;
  }
}

/** What a query whose text analyzes to no token matches (`zero_terms_query`). */
function zeroTerms(zeroTermsQuery: 'all' | undefined, boost: number): PlanNode {
  return zeroTermsQuery === 'all' ? { op: 'all', boost } : NONE;
}

/** How many of `count` tokens a match needs. */
function requiredTokens(q: MatchQuery, count: number): number {
  if (q.operator === 'and') return count;
  if (q.minimumShouldMatch === undefined || count < 2) return 1;
  return Math.max(1, resolveMinimumShouldMatch(count, q.minimumShouldMatch) ?? 1);
}

function planMatch(ctx: PlanContext, q: MatchQuery): PlanNode {
  const boost = q.boost ?? 1;
  return onField(ctx, q.field, (leaf) => {
    if (q.prefixMaxExpansions !== undefined && leaf.kind === 'keyword') {
      // the keyword analyzer gives the whole text as the one, last, token: a prefix
      const terms = expandTerms(ctx.segment, leaf.field, { prefix: q.text, limit: q.prefixMaxExpansions, what: 'match_bool_prefix', deadline: ctx.deadline });
      return termsUnion(ctx, leaf.field, terms, boost);
    }
    if (leaf.kind !== 'text') return exactValue(lenientIf(leaf, q.lenient), q.text, false, boost);
    const tokens = analyzerFor(leaf.field).tokens(q.text);
    if (tokens.length === 0) return zeroTerms(q.zeroTermsQuery, boost);
    // match_bool_prefix: the last token is a prefix, one clause of its own
    const prefix = q.prefixMaxExpansions === undefined ? undefined : tokens.pop()!;
    const weightOf = new Map<string, number>();
    for (const t of tokens) weightOf.set(t, (weightOf.get(t) ?? 0) + 1);
    const lists: Uint32Array[] = [];
    const weights: number[] = [];
    for (const [t, w] of weightOf) {
      lists.push(postingsOf(ctx, leaf.field, t));
      weights.push(w);
    }
    let count = tokens.length;
    if (prefix !== undefined) {
      const terms = expandTerms(ctx.segment, leaf.field, { prefix, limit: q.prefixMaxExpansions, what: 'match_bool_prefix', deadline: ctx.deadline });
      lists.push(unionMany(terms.map((t) => postingsOf(ctx, leaf.field, t)), ctx.limit, ctx.deadline));
      weights.push(1);
      count++;
    }
    const min = requiredTokens(q, count);
    if (min > count) return NONE;
    return { op: 'tokens', lists, weights, min, boost };
  });
}

function positionsOf(ctx: PlanContext, field: string, terms: readonly string[]): PositionPostings[] {
  const out: PositionPostings[] = [];
  for (const t of terms) {
    const p = ctx.segment.positions(field, t);
    if (p !== null && p.docs.length > 0) out.push(p);
  }
  return out;
}

function planPhrase(ctx: PlanContext, q: PhraseQuery): PlanNode {
  const boost = q.boost ?? 1;
  return onField(ctx, q.field, (leaf) => {
    if (leaf.kind !== 'text') return exactValue(lenientIf(leaf, q.lenient), q.text, false, boost);
    const tokens = analyzerFor(leaf.field).tokens(q.text);
    if (tokens.length === 0) return zeroTerms(q.zeroTermsQuery, boost);
    if (tokens.length === 1) return termsUnion(ctx, leaf.field, tokens, boost);
    const slots: PositionPostings[][] = [];
    for (const t of tokens) {
      const p = positionsOf(ctx, leaf.field, [t]);
      if (p.length === 0) return NONE;
      slots.push(p);
    }
    return { op: 'phrase', slots, slotKeys: tokens, slop: Math.max(0, q.slop), boost };
  });
}

function planPhrasePrefix(ctx: PlanContext, q: PhrasePrefixQuery): PlanNode {
  const boost = q.boost ?? 1;
  const limit = Math.max(1, q.maxExpansions);
  return onField(ctx, q.field, (leaf) => {
    const { field, kind } = leaf;
    if (kind === 'keyword') {
      const terms = expandTerms(ctx.segment, field, { prefix: q.text, limit, what: 'match_phrase_prefix', deadline: ctx.deadline });
      return termsUnion(ctx, field, terms, boost);
    }
    if (kind !== 'text') return exactValue(lenientIf(leaf, q.lenient), q.text, false, boost);
    const tokens = analyzerFor(field).tokens(q.text);
    const last = tokens.pop();
    if (last === undefined) return zeroTerms(q.zeroTermsQuery, boost);
    const expansions = expandTerms(ctx.segment, field, { prefix: last, limit, what: 'match_phrase_prefix', deadline: ctx.deadline });
    if (tokens.length === 0) return termsUnion(ctx, field, expansions, boost);
    const slots: PositionPostings[][] = [];
    for (const t of tokens) {
      const p = positionsOf(ctx, field, [t]);
      if (p.length === 0) return NONE;
      slots.push(p);
    }
    const lastSlot = positionsOf(ctx, field, expansions);
    if (lastSlot.length === 0) return NONE;
    slots.push(lastSlot);
    // the expanded slot can never repeat an exact token's key: it carries a marker
    return { op: 'phrase', slots, slotKeys: [...tokens, '\u0000' + last], slop: 0, boost };
  });
}

function planTerm(ctx: PlanContext, q: TermQuery): PlanNode {
  return onField(ctx, q.field, (leaf) => exactValue(leaf, q.value, q.caseInsensitive === true, q.boost ?? 1));
}

function planTerms(ctx: PlanContext, q: TermsQuery): PlanNode {
  const boost = q.boost ?? 1;
  return onField(ctx, q.field, (leaf) => {
    const { field, kind } = leaf;
    switch (kind) {
      case 'text':
      case 'keyword':
        return termsUnion(ctx, field, q.values.map(String), boost);
      case '_id':
        return idsNode(ctx, q.values, boost);
      case 'long':
      case 'double':
      case '_lid': {
        const values: number[] = [];
        for (const v of q.values) {
          const n = toNumber(v);
          if (n === undefined) return rejectOrNone(leaf, invalidValue(v, field, 'numeric'));
          values.push(n);
        }
        const column = ctx.segment.numeric(field);
        if (column === null || values.length === 0) return NONE;
        return { op: 'column_in', column, values: Float64Array.from(values).sort(), boost };
      }
      default: {
        const nodes = q.values.map((v) => exactValue(leaf, v, false, 1));
        const any = anyOf(nodes, 1);
        return any.op === 'none' ? NONE : { op: 'const', child: any, boost };
      }
    }
  });
}

function planRange(ctx: PlanContext, q: RangeQuery): PlanNode {
  const boost = q.boost ?? 1;
  const lower = q.gt ?? q.gte;
  const lowerInclusive = q.gt === undefined;
  const upper = q.lt ?? q.lte;
  const upperInclusive = q.lt === undefined;
  return onField(ctx, q.field, (bare) => {
    const leaf = lenientIf(bare, q.lenient);
    const { field, kind } = leaf;
    switch (kind) {
      case 'long':
      case 'double':
      case '_lid':
      case 'boolean': {
        const read = (v: RawValue): number | undefined => {
          if (kind === 'boolean') {
            const b = toBoolean(v);
            if (b !== undefined) return b ? 1 : 0;
          }
          return toNumber(v);
        };
        const lo = lower === undefined ? -Infinity : read(lower);
        const hi = upper === undefined ? Infinity : read(upper);
        if (lo === undefined) return rejectOrNone(leaf, invalidValue(lower!, field, 'numeric'));
        if (hi === undefined) return rejectOrNone(leaf, invalidValue(upper!, field, 'numeric'));
        return columnRange(ctx, field, lo, lowerInclusive, hi, upperInclusive, boost);
      }
      case 'date':
      case '_ts': {
        const opts = dateOptions(ctx, q);
        let lo: number;
        let hi: number;
        try {
          // gt and lte round up (the end of what the bound names), gte and lt round down
          lo = lower === undefined ? -Infinity : toDate(lower, opts, !lowerInclusive);
          hi = upper === undefined ? Infinity : toDate(upper, opts, upperInclusive);
        } catch (err) {
          if (err instanceof BadRequestError) return rejectOrNone(leaf, err);
          throw err;
        }
        return columnRange(ctx, field, lo, lowerInclusive, hi, upperInclusive, boost);
      }
      case 'keyword':
      case 'text': {
        const range = {
          lowerInclusive,
          upperInclusive,
          ...(lower === undefined ? {} : { lower: String(lower) }),
          ...(upper === undefined ? {} : { upper: String(upper) }),
        };
        const terms = termsInRange(ctx.segment, field, range, ctx.deadline);
        return termsUnion(ctx, field, terms, boost);
      }
      default:
        return NONE;
    }
  });
}

/**
 * `exists` and `_exists_` apply to string fields (text, keyword) since 1.23.0; the built-in
 * fields always exist; any other type is a 400 (skipped when a `*` name matched it).
 */
function planExists(ctx: PlanContext, q: ExistsQuery): PlanNode {
  return onField(ctx, q.field, (leaf) => {
    const { kind } = leaf;
    if (kind === 'long' || kind === 'double' || kind === 'date' || kind === 'boolean') {
      return rejectOrNone(
        leaf,
        new BadRequestError(
          `failed to create query: [exists] queries apply to string fields (text, keyword) only; field [${leaf.field}] is of type [${kind}]`,
          'query_shard_exception',
        ),
      );
    }
    return existsNode(ctx, leaf.field, kind, q.boost ?? 1);
  });
}

function planPrefix(ctx: PlanContext, q: PrefixQuery): PlanNode {
  const boost = q.boost ?? 1;
  const ci = q.caseInsensitive === true;
  return onField(ctx, q.field, (leaf) => {
    const { field, kind } = leaf;
    if (kind === '_index') {
      const hit = ci ? ctx.index.toLowerCase().startsWith(q.prefix.toLowerCase()) : ctx.index.startsWith(q.prefix);
      return hit ? { op: 'all', boost } : NONE;
    }
    if (kind !== 'text' && kind !== 'keyword' && kind !== 'boolean') return NONE;
    const prefix = kind === 'text' ? q.prefix.toLowerCase() : q.prefix;
    if (prefix === '') return existsNode(ctx, field, kind, boost);
    const lower = prefix.toLowerCase();
    const terms =
      ci && kind !== 'text'
        ? expandTerms(ctx.segment, field, {
            prefix: '',
            accept: (t) => t.toLowerCase().startsWith(lower),
            what: 'prefix',
            deadline: ctx.deadline,
          })
        : expandTerms(ctx.segment, field, { prefix, what: 'prefix', deadline: ctx.deadline });
    return termsUnion(ctx, field, terms, boost);
  });
}

function planPattern(
  ctx: PlanContext,
  q: WildcardQuery | RegexpQuery,
  compile: (pattern: string, ci: boolean) => { regex: RegExp; prefix: string },
): PlanNode {
  const boost = q.boost ?? 1;
  const ci = q.caseInsensitive === true;
  return onField(ctx, q.field, (leaf) => {
    const { field, kind } = leaf;
    if (q.kind === 'wildcard' && isMatchAllWildcard(q.pattern)) return existsNode(ctx, field, kind, boost);
    if (kind === '_index') return compile(q.pattern, ci).regex.test(ctx.index) ? { op: 'all', boost } : NONE;
    if (kind !== 'text' && kind !== 'keyword' && kind !== 'boolean') {
      if (q.kind === 'wildcard') return NONE;
      return rejectOrNone(
        leaf,
        new BadRequestError(
          `failed to create query: can only use regexp queries on keyword and text fields - not on [${field}] which is of type [${kind.replace(/^_/, '')}]`,
          'query_shard_exception',
        ),
      );
    }
    const { regex, prefix } = kind === 'text' ? compile(q.pattern.toLowerCase(), false) : compile(q.pattern, ci);
    const terms = expandTerms(ctx.segment, field, {
      prefix,
      accept: (t) => regex.test(t),
      what: q.kind,
      deadline: ctx.deadline,
    });
    return termsUnion(ctx, field, terms, boost);
  });
}

function planBool(ctx: PlanContext, q: BoolQuery): PlanNode {
  const must = q.must.map((c) => planQuery(ctx, c));
  const filter = q.filter.map((c) => planQuery(ctx, c));
  if (must.some((n) => n.op === 'none') || filter.some((n) => n.op === 'none')) return NONE;
  const mustNot = q.mustNot.map((c) => planQuery(ctx, c)).filter((n) => n.op !== 'none');
  if (mustNot.some((n) => n.op === 'all')) return NONE;
  const required = must.length + filter.length;
  let msm = q.minimumShouldMatch ?? (required === 0 && q.should.length > 0 ? 1 : 0);
  // with nothing required, a doc must match some should clause whatever the setting says
  if (required === 0 && q.should.length > 0) msm = Math.max(1, msm);
  if (msm > q.should.length) return NONE;
  const planned = q.should.map((c) => planQuery(ctx, c));
  const should = planned.filter((n) => n.op !== 'none');
  if (msm > should.length) return NONE;
  const boost = q.boost ?? 1;
  if (required === 0 && q.should.length === 0 && mustNot.length === 0) return { op: 'all', boost };
  return { op: 'bool', must, filter, should, mustNot, minimumShouldMatch: msm, boost };
}

/** Binds `query` to the segment in `ctx`. */
export function planQuery(ctx: PlanContext, query: Query): PlanNode {
  switch (query.kind) {
    case 'match_all':
      return { op: 'all', boost: query.boost ?? 1 };
    case 'match_none':
      return NONE;
    case 'match':
      return planMatch(ctx, query);
    case 'phrase':
      return planPhrase(ctx, query);
    case 'phrase_prefix':
      return planPhrasePrefix(ctx, query);
    case 'term':
      return planTerm(ctx, query);
    case 'terms':
      return planTerms(ctx, query);
    case 'range':
      return planRange(ctx, query);
    case 'exists':
      return planExists(ctx, query);
    case 'prefix':
      return planPrefix(ctx, query);
    case 'wildcard':
      return planPattern(ctx, query, compileWildcard);
    case 'regexp':
      return planPattern(ctx, query, compileLuceneRegexp);
    case 'ids':
      return idsNode(ctx, query.values, query.boost ?? 1);
    case 'bool':
      return planBool(ctx, query);
    case 'constant_score': {
      const child = planQuery(ctx, query.filter);
      return child.op === 'none' ? NONE : { op: 'const', child, boost: query.boost ?? 1 };
    }
  }
}
