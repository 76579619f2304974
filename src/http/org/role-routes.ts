/**
 * Organisation roles: the four defaults (fixed) and custom ones, by name. A role is
 * `{name, permissions, indexes, default}`; `indexes` are the patterns its holders may search.
 */
import type { FastifyInstance } from 'fastify';
import { parseOrgRoleInput, type OrgRole, type OrgService } from '../../auth/index.js';
import { jsonObjectBody } from '../request-body.js';
import { orgActor } from './org-actor.js';

interface RoleWire {
  name: string;
  permissions: string[];
  indexes: string[];
  default: boolean;
}

type RoleParams = { Params: { name: string } };

export function registerRoleRoutes(app: FastifyInstance, service: OrgService): void {
  app.get('/v1/org/roles', async (): Promise<RoleWire[]> => (await service.listRoles()).map(roleWire));
  app.post('/v1/org/roles', async (request): Promise<RoleWire> => {
    const input = parseOrgRoleInput(jsonObjectBody(request.body));
    return roleWire(await service.createRole(input, orgActor(request)));
  });
  app.put<RoleParams>('/v1/org/roles/:name', async (request): Promise<RoleWire> => {
    const input = parseOrgRoleInput(jsonObjectBody(request.body));
    return roleWire(await service.updateRole(request.params.name, input, orgActor(request)));
  });
  app.delete<RoleParams>('/v1/org/roles/:name', async (request): Promise<RoleWire> => {
    return roleWire(await service.deleteRole(request.params.name, orgActor(request)));
  });
}

function roleWire(role: OrgRole): RoleWire {
  return { name: role.name, permissions: role.permissions, indexes: role.indexes, default: role.builtIn };
}
