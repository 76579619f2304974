import type { Query } from '../ast.js';
import { withBoost } from '../build.js';
import { unknownField, wrongType } from './errors.js';
import { eachKey, readStringList, standardKeys, type JsonObject } from './values.js';

/** `{"ids": {"values": ["1", "2"]}}`; unknown keys fail the way Elasticsearch's object parser fails them. */
export function parseIds(body: JsonObject): Query {
  let values: string[] = [];
  let boost: number | undefined;
  eachKey(
    'ids',
    body,
    {
      values: (v) => {
        if (!Array.isArray(v)) throw wrongType('ids', 'values', 'an array of strings', v);
        values = v.map((id) => (typeof id === 'number' && Number.isFinite(id) ? String(id) : readStringList('ids', 'values', id)[0]!));
      },
      type: (v) => void readStringList('ids', 'type', v),
      ...standardKeys('ids', (b) => (boost = b)),
    },
    unknownField,
  );
  return withBoost({ kind: 'ids', values }, boost);
}
