/**
 * The `highlight` object of one hit: for every source field a highlight field names (or its
 * pattern matches) that is text or keyword in the hit's index, the tagged fragments of its
 * values, `{"<field>": ["…@tag@word@/tag@…"]}`. Fields without a match are left out (or give
 * their first `no_match_size` characters); with no field at all, there is no `highlight` key.
 */
import type { FieldTypeLookup, SourceValues } from '../hit-fields.js';
import { fragmentsOf, noMatchFragment } from './fragments.js';
import type { HighlightField, HighlightSpec } from './highlight-request.js';
import { clauseIsOn, matchSpans } from './mark-spans.js';

function fieldsOf(spec: HighlightSpec, paths: Iterable<string>): Array<[string, HighlightField]> {
  const out = new Map<string, HighlightField>();
  const all = [...paths];
  for (const f of spec.fields) {
    // the first highlight entry naming a field decides its options
    if (f.pattern === null) {
      if (!out.has(f.name)) out.set(f.name, f);
      continue;
    }
    for (const path of all) if (!out.has(path) && f.pattern.test(path)) out.set(path, f);
  }
  return [...out];
}

function highlightOne(field: string, kind: 'text' | 'keyword', values: readonly string[], f: HighlightField): string[] {
  const clauses = f.requireFieldMatch ? f.clauses.filter((c) => clauseIsOn(c.field, field)) : f.clauses;
  const out: string[] = [];
  for (const value of values) {
    const spans = matchSpans(field, value, kind, clauses);
    if (spans.length === 0) continue;
    const room = f.numberOfFragments === 0 ? Infinity : f.numberOfFragments - out.length;
    if (room <= 0) break;
    out.push(...fragmentsOf(value, spans, f).slice(0, room));
  }
  if (out.length === 0 && f.noMatchSize > 0 && values.length > 0) out.push(noMatchFragment(values[0]!, f.noMatchSize, f.html));
  return out;
}

export function renderHighlight(values: () => SourceValues, index: string, spec: HighlightSpec | undefined, typeOf: FieldTypeLookup): string | undefined {
  if (spec === undefined) return undefined;
  const flat = values();
  const answer: Record<string, string[]> = {};
  for (const [field, f] of fieldsOf(spec, flat.keys())) {
    const kind = typeOf(index, field);
    if (kind !== 'text' && kind !== 'keyword') continue;
    const raw = flat.get(field);
    if (raw === undefined) continue;
    const fragments = highlightOne(field, kind, raw.map(String), f);
    if (fragments.length > 0) answer[field] = fragments;
  }
  return Object.keys(answer).length === 0 ? undefined : JSON.stringify(answer);
}
