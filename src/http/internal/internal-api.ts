/**
 * The HTTP server of a process that runs no api role: liveness, readiness, metrics and the
 * internal routes. The Elasticsearch API is not served: a client that reaches it gets 400
 * "no handler found", as for any unknown route.
 */
import type { FastifyInstance } from 'fastify';
import type { OrgService, RbacService } from '../../auth/index.js';
import type { Engine } from '../../engine/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import type { Lifecycle } from '../deps.js';
import { createGuardedServer } from '../guarded-server.js';
import { registerProbeRoutes } from '../routes/root.js';
import { registerInternalRoutes, type InternalRouteDeps } from './internal-routes.js';

export interface InternalApiDeps extends InternalRouteDeps {
  logger: Logger;
  metrics: Metrics;
  lifecycle: Lifecycle;
  rbac: RbacService;
  org: OrgService;
  /** the engine whose write-ahead log replay readiness waits for (a cache node) */
  engine?: Engine;
}

export function buildInternalApi(deps: InternalApiDeps): FastifyInstance {
  const app = createGuardedServer(deps);
  registerProbeRoutes(app, deps);
  registerInternalRoutes(app, deps);
  return app;
}
