/**
 * Index mappings: the type of every field of an index, fixed on first sight (dynamic typing:
 * strings → keyword, integers → long, other numbers → double, booleans → boolean, objects
 * flattened to dotted names; `_line` is text, `_ts` date, `_lid` long) or declared explicitly,
 * listed in order of first occurrence; multi-fields (`message.raw` indexing the values of
 * `message` with its own type); value coercion as Elasticsearch does it; at most `MAX_FIELDS`
 * fields. Persisted as `toJSON()` → `{"fields":[[name,type],...]}` in that order, a multi-field
 * as `[name,type,parent]` after its parent.
 */
export {
  IndexMapping,
  MappingUpdate,
  MAX_FIELDS,
  BUILTIN_FIELDS,
  METADATA_KEYS,
  isFieldType,
  fieldNameProblem,
  type MappingJson,
  type MappingEntry,
} from './index-mapping.js';
export { coerceValue, dynamicType, fieldParseError, mapperParsingError, type Scalar } from './coerce.js';
export {
  toProperties,
  MAPPING_RESPONSE_MAX_FIELDS,
  type Properties,
  type LeafProperty,
  type ObjectProperty,
} from './properties.js';
