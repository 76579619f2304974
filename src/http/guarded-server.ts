/**
 * The HTTP server every role's API starts from: request bodies and answers counted against
 * SVC_IN_FLIGHT_REQUESTS_BYTES (and watched by a gauge), requests with a body refused while the
 * process is above SVC_MEMORY_LIMIT_BYTES, and the auth hook installed before any route, so that
 * it guards every route registered after it.
 */
import type { FastifyInstance } from 'fastify';
import type { OrgService, RbacService } from '../auth/index.js';
import type { Config } from '../config/index.js';
import { RealMemoryBreaker } from '../common/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import { installAuth } from './auth-hook.js';
import { clusterSecretPolicy } from './cluster-policy.js';
import { InFlightBytes } from './in-flight-bytes.js';
import { createServer, type ServerOptions } from './server.js';

export interface GuardedServerDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  rbac: RbacService;
  org: OrgService;
}

export function createGuardedServer(deps: GuardedServerDeps, notFound?: ServerOptions['notFound']): FastifyInstance {
  const inFlight = new InFlightBytes(deps.config.inFlightRequestsBytes);
  deps.metrics.watchInFlightBytes(() => inFlight.usedBytes);
  const memory = deps.config.memoryLimitBytes > 0 ? RealMemoryBreaker.forProcess(deps.config.memoryLimitBytes) : undefined;
  const app = createServer({ logger: deps.logger, maxBodyBytes: deps.config.maxBulkBytes, inFlight, ...(memory ? { memory } : {}), ...(notFound ? { notFound } : {}) });
  installAuth(app, { rbac: deps.config.rbac, records: deps.rbac, org: deps.org, logger: deps.logger, cluster: clusterSecretPolicy(deps.config) });
  return app;
}
