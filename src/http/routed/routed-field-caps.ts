/**
 * `_field_caps` in the api role of a cluster: each cache node holding some of the indexes lists
 * its fields with `include_unmapped=true`, so that its answer names, for every field and type,
 * the indexes having it (an entry without `indices` stands for every index the node was asked
 * about); the lists are put together in the order of the indexes and rendered by the code one
 * process renders with. Fields come in the order one process finds them: by the first index
 * having them, then in that index's order.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { accessOf } from '../auth-hook.js';
import { renderFieldCaps, requestedFields, type Caps } from '../indices/field-caps-routes.js';
import { resolveTargets } from '../indices/targets.js';
import { boolParam, stringParam } from '../query-params.js';
import { checkExpandWildcards } from '../search/search-request.js';
import type { RoutedApiDeps } from './deps.js';
import { jsonOf, type HolderAnswer } from './fan-out.js';
import { answerListing, namingUrl, withParam, type ListingRequest } from './listing.js';

interface NodeFieldCaps {
  indices: string[];
  fields: Record<string, Record<string, Caps & { indices?: string[] }>>;
}

export function registerRoutedFieldCaps(app: FastifyInstance, deps: RoutedApiDeps): void {
  const fieldCaps = (request: ListingRequest, reply: FastifyReply) =>
    answerListing(
      deps,
      {
        targets: (catalog, req) => {
          requestedFields(req);
          checkExpandWildcards(stringParam(req.query, 'expand_wildcards'));
          return resolveTargets(catalog, accessOf(req), req.query, 'read', req.params.index);
        },
        url: (req, held) => withParam(namingUrl(req, held), 'include_unmapped', 'true'),
        merge: (_reply, names, answers, req) => mergeFieldCaps(names, answers, boolParam(req.query, 'include_unmapped') ?? false),
      },
      request,
      reply,
    );
  for (const path of ['/_field_caps', '/:index/_field_caps']) {
    app.get(path, fieldCaps);
    app.post(path, fieldCaps);
  }
}

function mergeFieldCaps(names: readonly string[], answers: HolderAnswer[], includeUnmapped: boolean): Record<string, unknown> {
  const rank = new Map(names.map((name, i) => [name, i]));
  const byRank = (a: string, b: string) => rank.get(a)! - rank.get(b)!;
  // field → type → indexes; where one process finds it first: the rank of the first index
  // having it, and its place in the answer of the node holding that index (that index's order)
  const byField = new Map<string, { first: number; place: number; types: Map<string, { caps: Caps; indices: string[] }> }>();
  for (const answer of answers) {
    const part = jsonOf<NodeFieldCaps>(answer);
    let place = 0;
    for (const [field, types] of Object.entries(part.fields)) {
      place++;
      let merged = byField.get(field);
      if (merged === undefined) byField.set(field, (merged = { first: Infinity, place: 0, types: new Map() }));
      for (const [type, entry] of Object.entries(types)) {
        if (type === 'unmapped') continue;
        const having = entry.indices ?? part.indices;
        const caps: Caps = { type, searchable: entry.searchable, aggregatable: entry.aggregatable };
        const into = merged.types.get(type) ?? { caps, indices: [] };
        into.indices.push(...having);
        merged.types.set(type, into);
        for (const index of having) {
          if (rank.get(index)! < merged.first) {
            merged.first = rank.get(index)!;
            merged.place = place;
          }
        }
      }
    }
  }
  const ordered = [...byField].filter(([, f]) => f.types.size > 0).sort(([, a], [, b]) => a.first - b.first || a.place - b.place);
  const fields = new Map<string, Map<string, { caps: Caps; indices: string[] }>>();
  for (const [field, { types }] of ordered) {
    for (const entry of types.values()) entry.indices.sort(byRank);
    fields.set(field, new Map([...types].sort(([, a], [, b]) => byRank(a.indices[0]!, b.indices[0]!))));
  }
  return renderFieldCaps([...names], fields, includeUnmapped);
}
