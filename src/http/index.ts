/**
 * The HTTP surface: fastify server, the Elasticsearch-compatible routes (parse, convert, call
 * the engine, convert back) and error rendering. The /v1 RBAC API registers here too.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createServer } from './server.js';
import { registerRootRoutes } from './routes/root.js';
import { registerBulkRoutes } from './bulk/bulk-route.js';
import { registerSearchRoutes } from './search/search-route.js';
import { ALLOW_ALL, type ApiDeps, type IndexAccess } from './deps.js';
import { ForbiddenError } from '../common/index.js';

export type { ApiDeps, Lifecycle, IndexAccess, IndexAction } from './deps.js';
export { createServer } from './server.js';

export function buildApi(deps: ApiDeps, accessOf: (request: FastifyRequest) => IndexAccess = () => ALLOW_ALL): FastifyInstance {
  const app = createServer({ logger: deps.logger, maxBodyBytes: deps.config.maxBulkBytes });
  registerRootRoutes(app, deps);
  registerBulkRoutes(app, deps, (request, index) =>
    accessOf(request).can('write', index)
      ? undefined
      : new ForbiddenError(`action [indices:data/write/bulk] is unauthorized for this actor on indices [${index}]`),
  );
  registerSearchRoutes(app, deps, accessOf);
  return app;
}
