/**
 * The HTTP server of a process that runs no api role: liveness, readiness, metrics and the
 * internal routes. The Elasticsearch API is not served: a client that reaches it gets 400
 * "no handler found", as for any unknown route.
 */
import type { FastifyInstance } from 'fastify';
import type { OrgService, RbacService } from '../../auth/index.js';
import type { Engine } from '../../engine/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import { installAuth } from '../auth-hook.js';
import { clusterSecretPolicy } from '../cluster-policy.js';
import type { Lifecycle } from '../deps.js';
import { registerProbeRoutes } from '../routes/root.js';
import { createServer } from '../server.js';
import { InFlightBytes } from '../in-flight-bytes.js';
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
  const inFlight = new InFlightBytes(deps.config.inFlightRequestsBytes);
  deps.metrics.watchInFlightBytes(() => inFlight.usedBytes);
  const app = createServer({ logger: deps.logger, maxBodyBytes: deps.config.maxBulkBytes, inFlight });
  installAuth(app, { rbac: deps.config.rbac, records: deps.rbac, org: deps.org, logger: deps.logger, cluster: clusterSecretPolicy(deps.config) });
  registerProbeRoutes(app, deps);
  registerInternalRoutes(app, deps);
  return app;
}
