/**
 * The Elasticsearch API of the api role in a cluster whose data is on other processes: writes
 * routed to the cache node holding each index, searches and listings over several indexes spread
 * over the cache nodes and merged, everything else sent whole to one cache node. A process
 * running every role does not use it.
 */
import type { FastifyInstance } from 'fastify';
import { ENDPOINT_PERMISSIONS } from '../../auth/index.js';
import { createGuardedServer } from '../guarded-server.js';
import { registerProbeRoutes } from '../routes/root.js';
import { noHandler } from '../server.js';
import type { RoutedApiDeps } from './deps.js';
import { forwardRequest } from './forward.js';
import { registerRoutedBulk } from './routed-bulk.js';
import { registerRoutedCluster } from './routed-cluster.js';
import { registerRoutedListings } from './routed-listings.js';
import { registerRoutedSearch } from './routed-search.js';

export type { RoutedApiDeps } from './deps.js';

/** `internalRoutes` registers this process's internal routes (after the auth hook, like every route). */
export function buildRoutedApi(deps: RoutedApiDeps, internalRoutes: (app: FastifyInstance) => void): FastifyInstance {
  const app = createGuardedServer(deps, async (request, reply) =>
    request.url.startsWith('/_internal/') ? noHandler(request, reply) : forwardRequest(deps, request, reply),
  );
  registerProbeRoutes(app, deps);
  registerRoutedBulk(app, deps);
  registerRoutedSearch(app, deps);
  registerRoutedListings(app, deps);
  registerRoutedCluster(app, deps);
  registerOneSegmentApis(app, deps);
  internalRoutes(app);
  return app;
}

/**
 * The one-segment paths of one process's API (`/_alias`, `/_template`, `/_license`...) that the
 * api role sends whole: registered as such, so that `/:index` (a listing here) does not take
 * them and they keep their own row of the endpoint permission table, which lists every route.
 */
function registerOneSegmentApis(app: FastifyInstance, deps: RoutedApiDeps): void {
  for (const { method, url } of ENDPOINT_PERMISSIONS) {
    // HEAD comes with GET
    if (!/^\/_[^/:]+$/.test(url) || (method !== 'GET' && method !== 'DELETE') || app.hasRoute({ method, url })) continue;
    app.route({ method, url, handler: (request, reply) => forwardRequest(deps, request, reply) });
  }
}
