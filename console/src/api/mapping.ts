/** The fields of a `GET /{index}/_mapping` answer as dotted names with their types, over every index in it. */

type Properties = Record<string, { type?: string; properties?: Properties }>;
export type MappingResponse = Record<string, { mappings?: { properties?: Properties } }>;

function walk(properties: Properties, prefix: string, out: Map<string, string>): void {
  for (const [name, field] of Object.entries(properties)) {
    const full = prefix === '' ? name : `${prefix}.${name}`;
    if (field.properties !== undefined) walk(field.properties, full, out);
    else if (!out.has(full)) out.set(full, field.type ?? 'object');
  }
}

/** Field name → type; when indexes disagree on a field's type, the first index's wins. */
export function mappingFields(mapping: MappingResponse): Map<string, string> {
  const out = new Map<string, string>();
  for (const index of Object.values(mapping)) walk(index.mappings?.properties ?? {}, '', out);
  return out;
}
