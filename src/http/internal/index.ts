/**
 * The HTTP surface between the cluster's processes: the internal routes, and the server of a
 * process without the api role (probes, metrics and internal routes only, no Elasticsearch API).
 */
export { registerInternalRoutes, type InternalRouteDeps } from './internal-routes.js';
export { buildInternalApi, type InternalApiDeps } from './internal-api.js';
