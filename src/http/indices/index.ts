/**
 * The index administration API in Elasticsearch 7.10 form: indexes, mappings, field capabilities,
 * settings, stats, `_resolve/index`, aliases, legacy templates, `_cat`, cluster health/settings/state, license and X-Pack info.
 * Aliases and templates live in the metastore; catalog-link.ts keeps the engine in step with them.
 */
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../deps.js';
import { registerAliasRoutes } from './alias-routes.js';
import { registerCatRoutes } from './cat-routes.js';
import { registerClusterRoutes } from './cluster-routes.js';
import { registerFieldCapsRoutes } from './field-caps-routes.js';
import { registerForceMergeRoutes } from './forcemerge-route.js';
import { registerIndexRoutes } from './index-routes.js';
import { registerMappingRoutes } from './mapping-routes.js';
import { registerResolveRoutes } from './resolve-routes.js';
import { registerSettingsRoutes } from './settings-routes.js';
import { registerStatsRoutes } from './stats-routes.js';
import { registerTemplateRoutes } from './template-routes.js';
import { registerXpackRoutes } from './xpack-routes.js';

export { connectIndexCatalog, syncAliases, type CatalogLink } from './catalog-link.js';

export function registerIndicesRoutes(app: FastifyInstance, deps: ApiDeps): void {
  registerIndexRoutes(app, deps);
  registerMappingRoutes(app, deps);
  registerFieldCapsRoutes(app, deps);
  registerForceMergeRoutes(app, deps);
  registerSettingsRoutes(app, deps);
  registerStatsRoutes(app, deps);
  registerAliasRoutes(app, deps);
  registerTemplateRoutes(app, deps);
  registerCatRoutes(app, deps);
  registerClusterRoutes(app, deps);
  registerResolveRoutes(app, deps);
  registerXpackRoutes(app, deps);
}
