/** `a, b  c` → `['a', 'b', 'c']`: lists typed into one field. */
export function splitList(text: string): string[] {
  return text.split(/[\s,]+/).filter((s) => s !== '');
}
