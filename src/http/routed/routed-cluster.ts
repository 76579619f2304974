/**
 * Cluster-level answers in the api role of a cluster that cover every index: `_cluster/health`
 * and `_cat/health` from the routing snapshot (the catalog's index names, the live nodes: no
 * read of the metastore but the snapshot's, at most once a heartbeat interval), and the
 * `metadata` of `_cluster/state` from every cache node holding some of the indexes, merged.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { resolveIndices } from '../../engine/index.js';
import { catHealth } from '../indices/cat-routes.js';
import { clusterHealth, type HealthSource } from '../indices/cluster-routes.js';
import { expressionParts } from '../indices/targets.js';
import type { RoutedApiDeps } from './deps.js';
import { jsonOf } from './fan-out.js';
import { answerListing, byIndex, catalogOf, splitUrl, type Listing, type ListingRequest } from './listing.js';

export function registerRoutedCluster(app: FastifyInstance, deps: RoutedApiDeps): void {
  const health: HealthSource = {
    config: deps.config,
    lifecycle: deps.lifecycle,
    catalog: () => catalogOf(deps),
    nodeCounts: async () => {
      const snapshot = await deps.routing.current();
      return { nodes: snapshot.liveUrls.size, dataNodes: snapshot.cacheNodes.length };
    },
  };
  app.get('/_cluster/health', (request: ListingRequest, reply: FastifyReply) => clusterHealth(health, request, reply));
  app.get('/_cluster/health/:index', (request: ListingRequest, reply: FastifyReply) => clusterHealth(health, request, reply));
  app.get('/_cat/health', (request: ListingRequest, reply: FastifyReply) => catHealth(health, request, reply));

  const state = (metadataOnly: boolean): Listing => ({
    // the indexes of the metadata (none when it is not asked for: the request goes whole to a cache node)
    targets: (catalog, request) => {
      const metrics = expressionParts(request.params.metric);
      if (!metadataOnly && metrics.length > 0 && !metrics.includes('_all') && !metrics.includes('metadata')) return [];
      const expression = request.params.index;
      return expressionParts(expression).length === 0 ? catalog.indexNames() : resolveIndices(expression, catalog.indexNames(), catalog.aliasMap(), { ignoreUnavailable: true });
    },
    url: (request, held) => `/_cluster/state/${metadataOnly ? 'metadata' : encodeURIComponent(request.params.metric ?? '_all')}/${encodeURIComponent(held.join(','))}${splitUrl(request.url)[1]}`,
    merge: (_reply, names, answers) => {
      const parts = answers.map((a) => jsonOf<{ metadata: { indices: Record<string, unknown> } }>(a));
      const first = parts[0]!;
      return { ...first, metadata: { ...first.metadata, indices: byIndex(names, parts.map((p) => p.metadata.indices)) } };
    },
  });
  const metadata = state(true);
  const whole = state(false);
  app.get('/_cluster/state/metadata', (request: ListingRequest, reply: FastifyReply) => answerListing(deps, metadata, request, reply));
  app.get('/_cluster/state/metadata/:index', (request: ListingRequest, reply: FastifyReply) => answerListing(deps, metadata, request, reply));
  for (const path of ['/_cluster/state', '/_cluster/state/:metric', '/_cluster/state/:metric/:index']) {
    app.get(path, (request: ListingRequest, reply: FastifyReply) => answerListing(deps, whole, request, reply));
  }
}
