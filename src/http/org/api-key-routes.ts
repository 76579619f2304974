/**
 * The API keys members with `write:api_key` manage: the keys tools use for data, that is keys
 * whose role holds no database action. Rotating one returns its new value once; the old value
 * stops working at once. Keys of administrators (`manage_security`, `monitor`) stay with the
 * /v1 API, so rotating cannot hand a member more than data access.
 */
import type { FastifyInstance } from 'fastify';
import { parseRecordId, type RbacService, type StoredRole } from '../../auth/index.js';
import { ForbiddenError } from '../../common/index.js';
import { orgActor } from './org-actor.js';

interface KeyWire {
  id: number;
  name: string;
  role: string;
  created_at: string;
  api_key?: string;
}

export function registerApiKeyRoutes(app: FastifyInstance, rbac: RbacService): void {
  app.get('/v1/org/api_keys', async (): Promise<KeyWire[]> => {
    const adminRoles = new Set((await rbac.listRoles()).filter((r) => r.database.length > 0).map((r) => r.name));
    return (await rbac.listApiKeys())
      .filter((k) => !adminRoles.has(k.role))
      .map((k) => ({ id: k.id, name: k.name, role: k.role, created_at: k.createdAt }));
  });
  app.post<{ Params: { id: string } }>('/v1/org/api_keys/:id/rotate', async (request, reply): Promise<KeyWire> => {
    const id = parseRecordId(request.params.id, 'api key');
    const key = await rbac.rotateApiKey(id, orgActor(request).label, refuseAdministratorKeys);
    void reply.header('Cache-Control', 'no-store');
    return { id: key.id, name: key.name, role: key.role, created_at: key.createdAt, api_key: key.apiKey };
  });
}

function refuseAdministratorKeys(role: StoredRole | undefined): void {
  if (role !== undefined && role.database.length > 0) {
    throw new ForbiddenError(`the role [${role.name}] of this api key holds [${role.database.join(', ')}]: rotate it through /v1/api_keys`);
  }
}
