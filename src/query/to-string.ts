import type { Query, RawValue } from './ast.js';

/**
 * A compact Lucene-like rendering of a query for logs and debugging (not meant to be parsed
 * back): `+` required, `-` prohibited, `#` filter, `~n` minimum_should_match or slop, `^b` boost,
 * `=` for exact terms.
 */
export function queryToString(q: Query): string {
  return render(q) + (q.boost !== undefined ? `^${q.boost}` : '');
}

function render(q: Query): string {
  switch (q.kind) {
    case 'match_all':
      return '*:*';
    case 'match_none':
      return '-*:*';
    case 'match': {
      const words = /\s/.test(q.text) ? `(${q.text})` : q.text;
      const op = q.operator === 'and' ? '[and]' : '';
      const msm = q.minimumShouldMatch !== undefined ? `~${q.minimumShouldMatch}` : '';
      return `${q.field}:${words}${op}${msm}`;
    }
    case 'phrase':
      return `${q.field}:${JSON.stringify(q.text)}${q.slop > 0 ? `~${q.slop}` : ''}`;
    case 'phrase_prefix':
      return `${q.field}:${JSON.stringify(q.text + '*')}`;
    case 'term':
      return `${q.field}:=${value(q.value)}${q.caseInsensitive ? '[i]' : ''}`;
    case 'terms':
      return `${q.field}:(${q.values.map((v) => '=' + value(v)).join(' ')})`;
    case 'range': {
      const lower = q.gte ?? q.gt;
      const upper = q.lte ?? q.lt;
      const open = q.gte !== undefined ? '[' : '{';
      const close = q.lte !== undefined ? ']' : '}';
      const lo = lower === undefined ? '*' : value(lower);
      const hi = upper === undefined ? '*' : value(upper);
      return `${q.field}:${open}${lo} TO ${hi}${close}`;
    }
    case 'exists':
      return `_exists_:${q.field}`;
    case 'prefix':
      return `${q.field}:${q.prefix}*`;
    case 'wildcard':
      return `${q.field}:${q.pattern}`;
    case 'regexp':
      return `${q.field}:/${q.pattern}/${q.caseInsensitive ? 'i' : ''}`;
    case 'ids':
      return `_id:(${q.values.join(' ')})`;
    case 'constant_score':
      return `ConstantScore(${queryToString(q.filter)})`;
    case 'bool': {
      const parts = [
        ...q.must.map((c) => '+' + queryToString(c)),
        ...q.should.map((c) => queryToString(c)),
        ...q.mustNot.map((c) => '-' + queryToString(c)),
        ...q.filter.map((c) => '#' + queryToString(c)),
      ];
      const msm = q.minimumShouldMatch !== undefined ? `~${q.minimumShouldMatch}` : '';
      return `(${parts.join(' ')})${msm}`;
    }
  }
}

function value(v: RawValue): string {
  return typeof v === 'string' && /[\s"()[\]{}]/.test(v) ? JSON.stringify(v) : String(v);
}
