/**
 * The organisation API under /v1/org (the hosted offering's roles): account, users, roles, API
 * key rotation and billing records. Registered only with RBAC on; the auth hook checks each
 * route's organisation permission, the organisation service the rules on roles.
 */
import type { FastifyInstance } from 'fastify';
import type { OrgService, RbacService } from '../../auth/index.js';
import { registerAccountRoutes } from './account-routes.js';
import { registerApiKeyRoutes } from './api-key-routes.js';
import { registerBillingRoutes } from './billing-routes.js';
import { registerRoleRoutes } from './role-routes.js';
import { registerUserRoutes } from './user-routes.js';

export interface OrgRouteDeps {
  org: OrgService;
  rbac: RbacService;
}

export function registerOrgRoutes(app: FastifyInstance, deps: OrgRouteDeps): void {
  registerAccountRoutes(app, deps.org);
  registerUserRoutes(app, deps.org);
  registerRoleRoutes(app, deps.org);
  registerApiKeyRoutes(app, deps.rbac);
  registerBillingRoutes(app, deps.org);
}
