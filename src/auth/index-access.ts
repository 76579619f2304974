/**
 * Index-level rules for handlers, on top of an AccessContext. A request that names an index
 * the actor may not use fails with 403 before anything is looked up (so that a 404 does not
 * reveal which indexes exist); wildcards and `_all` quietly cover only the permitted indexes;
 * in a bulk request, each item for a forbidden index fails on its own.
 */
import { ForbiddenError } from '../common/index.js';
import type { AccessContext } from './access-context.js';
import type { IndexAction } from './permissions.js';

/** Whether an index expression names one index (or alias) rather than a set. */
export function isConcreteIndexName(expression: string): boolean {
  return expression !== '_all' && !expression.includes('*') && !expression.startsWith('-');
}

export function forbiddenIndexError(action: IndexAction, index: string): ForbiddenError {
  return new ForbiddenError(`permission [index:${action}] on index [${index}] is required`);
}

/**
 * Throws 403 for the first concretely named index (or alias) the actor may not use with
 * `action`. Wildcard expressions, `_all` and exclusions (`-name`) pass; filter their expansion
 * with `permittedIndices`.
 */
export function assertNamedIndicesPermitted(access: AccessContext, action: IndexAction, expressions: readonly string[]): void {
  for (const expression of expressions) {
    if (isConcreteIndexName(expression) && !access.can(action, expression)) throw forbiddenIndexError(action, expression);
  }
}

/** The indexes of `indices` the actor may use with `action`, in their order. */
export function permittedIndices(access: AccessContext, action: IndexAction, indices: readonly string[]): string[] {
  if (!access.enforced) return [...indices];
  return indices.filter((index) => access.can(action, index));
}

/**
 * For one bulk item: the error to report in that item when the actor may not write to its
 * index, or undefined when the item may proceed.
 */
export function bulkItemForbidden(access: AccessContext, index: string): ForbiddenError | undefined {
  return access.can('write', index) ? undefined : forbiddenIndexError('write', index);
}
