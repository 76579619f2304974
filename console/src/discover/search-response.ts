/** The parts of a `_search` answer Discover reads. */

export interface Hit {
  _index: string;
  _id: string;
  _source: Record<string, unknown>;
  sort?: unknown[];
  /** field → fragments with the matched words between the tags Discover asked for */
  highlight?: Record<string, string[]>;
}

export interface SearchResponse {
  hits: { total?: { value: number; relation: string }; hits: Hit[] };
  aggregations?: Record<string, { buckets: Array<{ key: number | string; key_as_string?: string; doc_count: number }> }>;
}

/** A hit's time (`_ts`, epoch ms), when it has one. */
export function hitTime(hit: Hit): number | undefined {
  const ts = hit._source._ts;
  return typeof ts === 'number' ? ts : undefined;
}

/** Nested objects flattened to dotted names, as the service names fields. */
export function flatten(source: Record<string, unknown>, prefix = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  for (const [key, value] of Object.entries(source)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) flatten(value as Record<string, unknown>, name, out);
    else out.push([name, value]);
  }
  return out;
}

/** Unique key of a hit across indexes, to merge pages and tail results. */
export const hitKey = (hit: Hit) => `${hit._index}/${hit._id}`;
