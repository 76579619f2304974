/**
 * The HTTP surface: fastify server, the Elasticsearch-compatible routes (parse, convert, call
 * the engine, convert back) and error rendering. The /v1 RBAC API and, with RBAC on, the /v1/org
 * organisation API register here too, the web console's static files, and the internal routes
 * the cluster's processes call on each other (internal/).
 */
import type { FastifyInstance } from 'fastify';
import { createGuardedServer } from './guarded-server.js';
import { registerRootRoutes } from './routes/root.js';
import { registerBulkRoutes } from './bulk/bulk-route.js';
import { registerSearchRoutes } from './search/search-route.js';
import type { ApiDeps } from './deps.js';
import { bulkItemForbidden } from '../auth/index.js';
import { accessOf } from './auth-hook.js';
import { registerRbacRoutes } from './routes/rbac.js';
import { registerIndicesRoutes } from './indices/index.js';
import { registerOrgRoutes } from './org/index.js';
import { registerConsoleRoutes } from './console/index.js';
import { registerSecurityRoutes } from './security/index.js';
import { registerDocumentApis } from './documents/index.js';
import { registerInternalRoutes } from './internal/index.js';

export type { ApiDeps, ClusterMembership, Lifecycle } from './deps.js';
export { buildInternalApi, registerInternalRoutes, type InternalApiDeps } from './internal/index.js';
export { createServer } from './server.js';

export function buildApi(deps: ApiDeps): FastifyInstance {
  // the auth hook comes before any route: it guards every route and collects the route list
  const app = createGuardedServer(deps);
  registerRootRoutes(app, deps);
  registerBulkRoutes(app, deps, (request, index) => bulkItemForbidden(accessOf(request), index));
  registerSearchRoutes(app, deps, accessOf);
  registerDocumentApis(app, deps, accessOf);
  registerRbacRoutes(app, { service: deps.rbac });
  registerSecurityRoutes(app, deps.config.maxBulkBytes);
  // the organisation API is part of access control: without RBAC there is no one to hold a role
  if (deps.config.rbac.enabled) registerOrgRoutes(app, { org: deps.org, rbac: deps.rbac });
  registerIndicesRoutes(app, deps);
  registerConsoleRoutes(app);
  registerInternalRoutes(app, deps);
  return app;
}
