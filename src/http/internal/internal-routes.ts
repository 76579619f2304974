/**
 * Routes the cluster's processes call on each other, under `/_internal/`, guarded by the cluster
 * secret (see auth/cluster-secret.ts): `GET /_internal/node` (who answers: id, name, roles, URL)
 * and `GET /_internal/cluster` (every membership row, live or dead; the coordinator lease; the
 * index placements); in a split cluster `POST /_internal/placements/{index}` (the coordinator
 * places an index), and on a cache node `POST /_internal/search` (its part of a search),
 * `POST /_internal/mappings` (the mappings of some of its indexes), `/_internal/es` (its
 * Elasticsearch API, for requests the api role sends whole), `POST /_internal/es/indexes` (the
 * same for its share of a request over several indexes) and the routes that move its indexes
 * while it runs (handover, drain: see move-routes.ts); the storage role's merges and garbage
 * collection, and a cache node's taking in of a merge (storage-routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { COORDINATOR_LEASE, UNFLUSHED_BYTES_STAT, type StorageService } from '../../cluster/index.js';
import type { Config } from '../../config/index.js';
import type { Metastore } from '../../metastore/index.js';
import type { ClusterMembership } from '../deps.js';
import { registerForwardRoute, type CacheGuard } from './forward-route.js';
import { registerMoveRoutes, type MoveRouteDeps } from './move-routes.js';
import { registerPlacementRoute } from './placement-route.js';
import { registerSearchPartRoute, type SearchPartDeps } from './search-part-route.js';
import { registerSegmentSyncRoute, registerStorageRoutes } from './storage-routes.js';

export interface InternalRouteDeps {
  config: Config;
  metastore: Metastore;
  cluster: ClusterMembership;
  /** the data of a cache node in a cluster: search parts and its Elasticsearch API for the api role */
  data?: SearchPartDeps & CacheGuard & MoveRouteDeps & { esApp: FastifyInstance };
  /** the storage role of a cluster: merges and garbage collection */
  storage?: StorageService;
}

export function registerInternalRoutes(app: FastifyInstance, deps: InternalRouteDeps): void {
  if (!deps.config.cluster.allRoles) registerPlacementRoute(app, deps.cluster);
  if (deps.data !== undefined) {
    registerSearchPartRoute(app, deps.data);
    registerForwardRoute(app, deps.data);
    registerMoveRoutes(app, deps.data, deps.cluster.nodeId);
    registerSegmentSyncRoute(app, deps.data.engine);
  }
  if (deps.storage !== undefined) registerStorageRoutes(app, deps.storage);
  app.get('/_internal/node', async () => ({
    id: deps.cluster.nodeId,
    name: deps.config.nodeName,
    cluster_name: deps.config.clusterName,
    roles: deps.cluster.roles,
    url: deps.cluster.advertisedUrl,
  }));

  app.get('/_internal/cluster', async () => {
    const [nodes, lease, placements] = await Promise.all([
      deps.metastore.nodes.listNodes(),
      deps.metastore.leases.get(COORDINATOR_LEASE),
      deps.metastore.placements.listPlacements(),
    ]);
    return {
      cluster_name: deps.config.clusterName,
      nodes: nodes.map((n) => ({
        id: n.id,
        name: n.name,
        roles: n.roles,
        url: n.url,
        live: n.live,
        heartbeat_at_ms: n.heartbeatAtMs,
        lease_expires_at_ms: n.leaseExpiresAtMs,
        draining: n.draining,
        // a cache node's bytes waiting for storage, as of its last heartbeat (the write budget)
        ...(typeof n.stats[UNFLUSHED_BYTES_STAT] === 'number' ? { unflushed_bytes: n.stats[UNFLUSHED_BYTES_STAT] } : {}),
      })),
      coordinator:
        lease === undefined
          ? null
          : { holder: lease.holder, epoch: lease.epoch, live: lease.live, acquired_at_ms: lease.acquiredAtMs, expires_at_ms: lease.expiresAtMs },
      placements: placements.map((p) => ({ index: p.index, node_id: p.nodeId, lease_epoch: p.leaseEpoch, placed_at_ms: p.placedAtMs, moving_to: p.movingTo ?? null })),
    };
  });
}
