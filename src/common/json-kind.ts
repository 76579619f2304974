/** The JSON kind of a parsed value, as error messages name it (`null`, `array`, `string`, …). */
export function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
