/**
 * The /v1 RBAC API: roles, API keys and role mappings. Handlers parse and check the body, call
 * the RBAC service with the acting principal's label (for the audit trail), and answer with the
 * wire shapes: role `{id, name, database, indexes}`, API key `{id, name, role, created_at}` plus
 * `api_key` once at creation, role mapping `{id, name, roles, created_at}`. Lists are arrays.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  parseApiKeyInput,
  parseRecordId,
  parseRoleInput,
  parseRoleMappingInput,
  type ApiKeyView,
  type RbacService,
  type RoleMappingView,
  type RoleView,
} from '../../auth/index.js';
import { accessOf } from '../auth-hook.js';
import { jsonObjectBody } from '../request-body.js';

export interface RbacRouteDeps {
  service: RbacService;
}

interface RoleWire {
  id: number;
  name: string;
  database: string[];
  indexes: Array<{ names: string[]; permissions: string[] }>;
}

interface ApiKeyWire {
  id: number;
  name: string;
  role: string;
  created_at: string;
  api_key?: string;
}

interface RoleMappingWire {
  id: number;
  name: string;
  roles: string[];
  created_at: string;
}

type IdParams = { Params: { id: string } };
type RoleIdParams = { Params: { roleId: string } };

function actor(request: FastifyRequest): string {
  return accessOf(request).principalLabel;
}

export function registerRbacRoutes(app: FastifyInstance, deps: RbacRouteDeps): void {
  const { service } = deps;

  app.get('/v1/roles', async (): Promise<RoleWire[]> => (await service.listRoles()).map(roleWire));
  app.post('/v1/roles', async (request): Promise<RoleWire> => {
    const input = parseRoleInput(jsonObjectBody(request.body));
    return roleWire(await service.createRole(input, actor(request)));
  });
  app.get<RoleIdParams>('/v1/roles/:roleId', async (request): Promise<RoleWire> => {
    return roleWire(await service.getRole(parseRecordId(request.params.roleId, 'role')));
  });
  app.put<RoleIdParams>('/v1/roles/:roleId', async (request): Promise<RoleWire> => {
    const id = parseRecordId(request.params.roleId, 'role');
    const input = parseRoleInput(jsonObjectBody(request.body), { id });
    return roleWire(await service.updateRole(id, input, actor(request)));
  });
  app.delete<RoleIdParams>('/v1/roles/:roleId', async (request): Promise<RoleWire> => {
    return roleWire(await service.deleteRole(parseRecordId(request.params.roleId, 'role'), actor(request)));
  });

  app.get('/v1/api_keys', async (): Promise<ApiKeyWire[]> => (await service.listApiKeys()).map(apiKeyWire));
  app.post('/v1/api_keys', async (request, reply): Promise<ApiKeyWire> => {
    const input = parseApiKeyInput(jsonObjectBody(request.body));
    const created = await service.createApiKey(input, actor(request));
    // the one response that carries a secret: keep it out of every cache on the way
    void reply.header('Cache-Control', 'no-store');
    return { ...apiKeyWire(created), api_key: created.apiKey };
  });
  app.delete<IdParams>('/v1/api_keys/:id', async (request): Promise<ApiKeyWire> => {
    return apiKeyWire(await service.revokeApiKey(parseRecordId(request.params.id, 'api key'), actor(request)));
  });

  app.get('/v1/role_mappings', async (): Promise<RoleMappingWire[]> => (await service.listRoleMappings()).map(mappingWire));
  app.post('/v1/role_mappings', async (request): Promise<RoleMappingWire> => {
    const input = parseRoleMappingInput(jsonObjectBody(request.body));
    return mappingWire(await service.createRoleMapping(input, actor(request)));
  });
  // PUT on the collection creates or replaces the mapping with the body's name
  app.put('/v1/role_mappings', async (request): Promise<RoleMappingWire> => {
    const input = parseRoleMappingInput(jsonObjectBody(request.body));
    return mappingWire((await service.upsertRoleMapping(input, actor(request))).mapping);
  });
  app.get<IdParams>('/v1/role_mappings/:id', async (request): Promise<RoleMappingWire> => {
    return mappingWire(await service.getRoleMapping(parseRecordId(request.params.id, 'role mapping')));
  });
  app.put<IdParams>('/v1/role_mappings/:id', async (request): Promise<RoleMappingWire> => {
    const id = parseRecordId(request.params.id, 'role mapping');
    const input = parseRoleMappingInput(jsonObjectBody(request.body), { id });
    return mappingWire(await service.updateRoleMapping(id, input, actor(request)));
  });
  app.delete<IdParams>('/v1/role_mappings/:id', async (request): Promise<RoleMappingWire> => {
    return mappingWire(await service.deleteRoleMapping(parseRecordId(request.params.id, 'role mapping'), actor(request)));
  });
}

function roleWire(role: RoleView): RoleWire {
  return { id: role.id, name: role.name, database: role.database, indexes: role.indexes };
}

function apiKeyWire(key: ApiKeyView): ApiKeyWire {
  return { id: key.id, name: key.name, role: key.role, created_at: key.createdAt };
}

function mappingWire(mapping: RoleMappingView): RoleMappingWire {
  return { id: mapping.id, name: mapping.name, roles: mapping.roles, created_at: mapping.createdAt };
}
