/**
 * `GET /_resolve/index/{name}`: the indexes, aliases and data streams (never any here) that a
 * comma-separated list of names and patterns covers, as Elasticsearch 7.10 answers it. A named
 * index or alias that does not exist is a 404; a pattern that matches nothing adds nothing;
 * `-pattern` removes what earlier parts added; `expand_wildcards=none` stops patterns matching.
 */
import type { FastifyInstance } from 'fastify';
import { assertNamedIndicesPermitted, permittedIndices } from '../../auth/index.js';
import { BadRequestError, IndexNotFoundError } from '../../common/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import { accessOf } from '../auth-hook.js';
import type { ApiDeps } from '../deps.js';
import { stringParam } from '../query-params.js';
import { catalogNames } from './index-views.js';
import { expressionParts, type IndicesRequest } from './targets.js';

const EXPAND_WILDCARDS = new Set(['open', 'closed', 'hidden', 'none', 'all']);

export function registerResolveRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/_resolve/index/:name', async (request: IndicesRequest) => {
    const expand = (stringParam(request.query, 'expand_wildcards') ?? 'open').split(',').map((s) => s.trim());
    for (const value of expand) {
      if (!EXPAND_WILDCARDS.has(value)) throw new BadRequestError(`No enum constant for expand_wildcards [${value}]: use open, closed, hidden, none or all`);
    }
    // every index here is open and none is hidden: only `none` (alone) changes what patterns match
    const expandWildcards = !(expand.length === 1 && expand[0] === 'none');
    const access = accessOf(request);
    const parts = expressionParts(request.params.name);
    assertNamedIndicesPermitted(access, 'read', parts);

    const catalog = await catalogNames(deps);
    const aliasMap = catalog.aliasMap();
    const indexNames = permittedIndices(access, 'read', catalog.indexNames());
    const aliasNames = permittedIndices(access, 'read', [...aliasMap.keys()]);
    const readable = new Set(indexNames);
    const indices = new Set<string>();
    const aliases = new Set<string>();
    for (const part of parts) {
      const exclude = part.startsWith('-') && indices.size + aliases.size > 0;
      const name = exclude ? part.slice(1) : part;
      const target = (set: Set<string>, found: string) => (exclude ? set.delete(found) : set.add(found));
      if (name === '_all' || name.includes('*')) {
        if (!expandWildcards) continue;
        const match = wildcardToRegExp(name === '_all' ? '*' : name);
        for (const index of indexNames) if (match.test(index)) target(indices, index);
        for (const alias of aliasNames) if (match.test(alias)) target(aliases, alias);
      } else if (readable.has(name)) {
        target(indices, name);
      } else if (aliasNames.includes(name)) {
        target(aliases, name);
      } else if (!exclude) {
        throw new IndexNotFoundError(name);
      }
    }

    const aliasesOfIndex = new Map<string, string[]>();
    for (const alias of aliasNames) {
      for (const index of aliasMap.get(alias) ?? []) {
        if (!readable.has(index)) continue;
        const list = aliasesOfIndex.get(index);
        if (list) list.push(alias);
        else aliasesOfIndex.set(index, [alias]);
      }
    }
    return {
      indices: [...indices].sort().map((name) => {
        const of = aliasesOfIndex.get(name);
        return of ? { name, aliases: of.sort(), attributes: ['open'] } : { name, attributes: ['open'] };
      }),
      aliases: [...aliases].sort().map((name) => ({ name, indices: (aliasMap.get(name) ?? []).filter((index) => readable.has(index)).sort() })),
      data_streams: [],
    };
  });
}
