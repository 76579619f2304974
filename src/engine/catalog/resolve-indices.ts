/**
 * Index expressions as Elasticsearch reads them: comma lists, `*` patterns, `_all`, aliases and
 * `-name` exclusions, with `ignore_unavailable` and `allow_no_indices`. A pure function over the
 * names that exist, so that it is tested on its own.
 */
import { IndexNotFoundError } from '../../common/index.js';

export interface ResolveOptions {
  /** a missing concrete name is skipped instead of failing */
  ignoreUnavailable?: boolean;
  /** wildcards that match nothing (and an empty result) are fine; default true */
  allowNoIndices?: boolean;
}

/** alias name → index names */
export type AliasMap = ReadonlyMap<string, readonly string[]>;

export function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Resolves an expression (`undefined`, `''`, `_all` and `*` mean all) to sorted distinct index names. */
export function resolveIndices(
  expression: string | undefined,
  existing: readonly string[],
  aliases: AliasMap = new Map(),
  opts: ResolveOptions = {},
): string[] {
  const allowNoIndices = opts.allowNoIndices ?? true;
  const parts = (expression ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0 || (parts.length === 1 && (parts[0] === '_all' || parts[0] === '*'))) {
    if (existing.length === 0 && !allowNoIndices) throw new IndexNotFoundError(expression || '_all');
    return [...existing].sort();
  }

  const selected = new Set<string>();
  for (const part of parts) {
    const exclude = part.startsWith('-') && selected.size > 0;
    const name = exclude ? part.slice(1) : part;
    const matches = matchName(name, existing, aliases);
    if (matches.length === 0) {
      const isPattern = name.includes('*') || name === '_all';
      if (exclude) continue;
      if (isPattern ? !allowNoIndices : !opts.ignoreUnavailable) throw new IndexNotFoundError(name);
      continue;
    }
    for (const m of matches) {
      if (exclude) selected.delete(m);
      else selected.add(m);
    }
  }
  if (selected.size === 0 && !allowNoIndices) throw new IndexNotFoundError(expression ?? '_all');
  return [...selected].sort();
}

function matchName(name: string, existing: readonly string[], aliases: AliasMap): string[] {
  if (name === '_all') return [...existing];
  if (!name.includes('*')) {
    if (existing.includes(name)) return [name];
    return [...(aliases.get(name) ?? [])];
  }
  const re = wildcardToRegExp(name);
  const out = existing.filter((n) => re.test(n));
  for (const [alias, targets] of aliases) if (re.test(alias)) out.push(...targets);
  return out;
}
