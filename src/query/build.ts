/**
 * Small constructors shared by both front ends, so that a `q=` string and the equivalent Query
 * DSL body build the very same AST.
 */
import { BadRequestError } from '../common/errors.js';
import { DEFAULT_FIELD, type BoolQuery, type Query } from './ast.js';

export function boolQuery(parts: Partial<Pick<BoolQuery, 'must' | 'should' | 'mustNot' | 'filter'>>): BoolQuery {
  return {
    kind: 'bool',
    must: parts.must ?? [],
    should: parts.should ?? [],
    mustNot: parts.mustNot ?? [],
    filter: parts.filter ?? [],
  };
}

/** Multiplies the query's boost by `boost` (as Elasticsearch nests boosts); undefined leaves it. */
export function withBoost<T extends Query>(query: T, boost: number | undefined): T {
  if (boost === undefined) return query;
  return { ...query, boost: (query.boost ?? 1) * boost };
}

/** One query stays itself; several become a bool whose should clauses need one match. */
export function anyOf(queries: Query[]): Query {
  if (queries.length === 1) return queries[0]!;
  return boolQuery({ should: queries });
}

export interface WeightedField {
  name: string;
  boost?: number;
}

const FIELD_BOOST = /^(.*)\^(\d+(?:\.\d+)?|\.\d+)$/;

/**
 * Reads `name^boost` field specs (`fields` of multi_match, query_string, simple_query_string).
 * `*` (every field) means the default field: the service searches `_line` when no field is named.
 */
export function parseFieldSpecs(specs: readonly string[]): WeightedField[] {
  const out: WeightedField[] = [];
  for (const spec of specs) {
    const m = FIELD_BOOST.exec(spec);
    let name = spec;
    let boost: number | undefined;
    if (m) {
      name = m[1]!;
      boost = Number(m[2]);
    } else if (spec.includes('^')) {
      throw new BadRequestError(`invalid boost in field [${spec}]`);
    }
    if (name === '' ) throw new BadRequestError(`empty field name in [${spec}]`);
    if (name === '*') name = DEFAULT_FIELD;
    out.push(boost === undefined ? { name } : { name, boost });
  }
  return out;
}

/** Builds the query for each field (with that field's boost) and ORs them. */
export function onFields(fields: readonly WeightedField[], build: (field: string) => Query): Query {
  return anyOf(fields.map((f) => withBoost(build(f.name), f.boost)));
}
