/**
 * Field names as clients write them. Elasticsearch's default dynamic mapping gives every string
 * a `.keyword` sub-field, so tools ask for `host.keyword`; here strings are keywords already, so
 * such a name falls back to its keyword parent when the segment has no field by that exact name.
 */
import type { SegmentReader } from '../segment-reader.js';

const KEYWORD_SUFFIX = '.keyword';

export function resolveFieldName(segment: SegmentReader, field: string): string {
  if (!field.endsWith(KEYWORD_SUFFIX) || segment.fieldType(field) !== undefined) return field;
  const parent = field.slice(0, -KEYWORD_SUFFIX.length);
  return segment.fieldType(parent) === 'keyword' ? parent : field;
}
