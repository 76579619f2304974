/**
 * Index-name patterns in grants: `*` matches every index, `prefix*` every index whose name
 * starts with the prefix, anything else exactly one name. No other wildcard is accepted, so a
 * grant always reads the way it looks.
 */

/** Characters Elasticsearch forbids in index names, plus the separators of multi-target paths. */
const FORBIDDEN = /[\s\\/?"<>|,#:]/;

export function matchesIndexPattern(pattern: string, index: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('*')) return index.startsWith(pattern.slice(0, -1));
  return pattern === index;
}

/** Why `pattern` is not a valid grant pattern, or undefined when it is. */
export function indexPatternProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return 'index pattern must not be empty';
  if (pattern.length > 255) return `index pattern [${pattern.slice(0, 40)}...] is longer than 255 characters`;
  const star = pattern.indexOf('*');
  if (star !== -1 && star !== pattern.length - 1) {
    return `index pattern [${pattern}] may use [*] only as the whole pattern or as a trailing prefix wildcard`;
  }
  if (FORBIDDEN.test(pattern)) return `index pattern [${pattern}] contains a character not allowed in index names`;
  return undefined;
}

/**
 * Whether every index `inner` matches is matched by `outer` too, so that a grant on `inner` is
 * no wider than one on `outer`.
 */
export function patternCovers(outer: string, inner: string): boolean {
  if (outer === '*') return true;
  if (inner === '*') return false;
  if (outer.endsWith('*')) return inner.startsWith(outer.slice(0, -1));
  return outer === inner;
}
