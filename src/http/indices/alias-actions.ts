/**
 * The body of `POST /_aliases` turned into metastore alias actions: `add` and `remove` with
 * `index`/`indices` and `alias`/`aliases`; index patterns expand to the existing indexes the
 * actor may write, alias patterns (in `remove`) to the aliases those indexes have. Naming an
 * index or alias the actor may not write is a 403; naming a missing index a 404. `remove_index`
 * is refused: it deletes an index, which is `DELETE /{index}`'s business.
 */
import { assertNamedIndicesPermitted, permittedIndices, type AccessContext } from '../../auth/index.js';
import { BadRequestError, IndexNotFoundError } from '../../common/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import type { AliasAction } from '../../metastore/index.js';
import { aliasSpecFromFields, validateAliasName } from './alias-model.js';
import { isPlainObject } from './settings.js';

export interface AliasCatalog {
  indexNames: readonly string[];
  /** alias → its indexes */
  aliases: ReadonlyMap<string, readonly string[]>;
}

const ACTION_KEYS: Record<'add' | 'remove', ReadonlySet<string>> = {
  add: new Set(['index', 'indices', 'alias', 'aliases', 'filter', 'routing', 'index_routing', 'search_routing', 'is_write_index', 'is_hidden']),
  remove: new Set(['index', 'indices', 'alias', 'aliases', 'must_exist']),
};

function invalid(reason: string): BadRequestError {
  return new BadRequestError(`Validation Failed: 1: ${reason};`, 'action_request_validation_exception');
}

function namesOf(body: Record<string, unknown>, one: string, many: string): string[] {
  const single = body[one];
  const list = body[many];
  const names: unknown[] = [];
  if (single !== undefined) names.push(single);
  if (list !== undefined) {
    if (Array.isArray(list)) names.push(...list);
    else names.push(list);
  }
  if (names.length === 0) throw invalid(`One of [${one}] or [${many}] is required`);
  return names.map((n) => {
    if (typeof n !== 'string' || n.length === 0) throw invalid(`[${one}] may not be empty`);
    return n;
  });
}

function expandIndexes(expressions: readonly string[], access: AccessContext, catalog: AliasCatalog): string[] {
  assertNamedIndicesPermitted(access, 'write', expressions);
  const out = new Set<string>();
  for (const expression of expressions) {
    if (expression === '_all' || expression.includes('*')) {
      const re = wildcardToRegExp(expression === '_all' ? '*' : expression);
      for (const name of permittedIndices(access, 'write', catalog.indexNames.filter((n) => re.test(n)))) out.add(name);
      continue;
    }
    if (!catalog.indexNames.includes(expression)) throw new IndexNotFoundError(expression);
    out.add(expression);
  }
  return [...out];
}

/** The actions of a `POST /_aliases` body, checked against the catalog and the actor's access. */
export function parseAliasActions(body: Record<string, unknown> | undefined, access: AccessContext, catalog: AliasCatalog): AliasAction[] {
  const actions = body?.actions;
  if (!Array.isArray(actions) || actions.length === 0) throw invalid('no actions specified');
  const out: AliasAction[] = [];
  for (const entry of actions) {
    if (!isPlainObject(entry) || Object.keys(entry).length !== 1) {
      throw new BadRequestError('[aliases] each action must be an object with one key: add, remove or remove_index', 'parsing_exception');
    }
    const [kind, value] = Object.entries(entry)[0]!;
    if (kind === 'remove_index') throw new BadRequestError('action [remove_index] is not supported: delete the index with DELETE /{index}');
    if (kind !== 'add' && kind !== 'remove') throw new BadRequestError(`[aliases] unknown action [${kind}]`, 'parsing_exception');
    if (!isPlainObject(value)) throw new BadRequestError(`[aliases] action [${kind}] must be an object`, 'parsing_exception');
    for (const key of Object.keys(value)) {
      if (!ACTION_KEYS[kind].has(key)) throw new BadRequestError(`[${kind}] unknown field [${key}]`, 'parsing_exception');
    }
    const indexes = expandIndexes(namesOf(value, 'index', 'indices'), access, catalog);
    const aliasNames = namesOf(value, 'alias', 'aliases');
    if (kind === 'add') {
      for (const alias of aliasNames) {
        validateAliasName(alias);
        assertNamedIndicesPermitted(access, 'write', [alias]);
        for (const index of indexes) out.push({ type: 'add', index, ...aliasSpecFromFields(alias, value) });
      }
      continue;
    }
    const mustExist = value.must_exist === undefined ? true : value.must_exist === true;
    for (const pattern of aliasNames) {
      if (pattern.includes('*') || pattern === '_all') {
        const re = wildcardToRegExp(pattern === '_all' ? '*' : pattern);
        for (const [alias, targets] of catalog.aliases) {
          if (!re.test(alias) || !access.can('write', alias)) continue;
          for (const index of indexes) if (targets.includes(index)) out.push({ type: 'remove', index, alias, mustExist: false });
        }
        continue;
      }
      assertNamedIndicesPermitted(access, 'write', [pattern]);
      for (const index of indexes) out.push({ type: 'remove', index, alias: pattern, mustExist });
    }
  }
  return out;
}
