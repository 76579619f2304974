/** Field names with `*` wildcards (in `fields`, `docvalue_fields`, `highlight`) as anchored RegExps. */
const cache = new Map<string, RegExp>();

/** The RegExp for a name holding `*`, or null for a plain name. */
export function fieldPattern(name: string): RegExp | null {
  if (!name.includes('*')) return null;
  let re = cache.get(name);
  if (re === undefined) {
    re = new RegExp(`^${name.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*')}$`);
    // names come from requests: keep the cache from growing without bound
    if (cache.size > 1000) cache.clear();
    cache.set(name, re);
  }
  return re;
}
