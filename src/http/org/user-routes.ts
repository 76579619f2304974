/**
 * Users of the organisation: list, invite (`{subject, role}`: the user's `sub` at the identity
 * provider and one role), change role (`{role}`), remove. Each user holds exactly one role.
 */
import type { FastifyInstance } from 'fastify';
import { parseOrgUserInput, parseRecordId, parseRoleChangeInput, type OrgService, type StoredOrgUser } from '../../auth/index.js';
import { jsonObjectBody } from '../request-body.js';
import { orgActor } from './org-actor.js';

export interface UserWire {
  id: number;
  subject: string;
  role: string;
  created_at: string;
  invited_by: string;
}

type UserParams = { Params: { userId: string } };

export function registerUserRoutes(app: FastifyInstance, service: OrgService): void {
  app.get('/v1/org/users', async (): Promise<UserWire[]> => (await service.listUsers()).map(userWire));
  app.post('/v1/org/users', async (request): Promise<UserWire> => {
    const input = parseOrgUserInput(jsonObjectBody(request.body));
    return userWire(await service.inviteUser(input, orgActor(request)));
  });
  app.put<UserParams>('/v1/org/users/:userId', async (request): Promise<UserWire> => {
    const id = parseRecordId(request.params.userId, 'user');
    const { role } = parseRoleChangeInput(jsonObjectBody(request.body));
    return userWire(await service.changeUserRole(id, role, orgActor(request)));
  });
  app.delete<UserParams>('/v1/org/users/:userId', async (request): Promise<UserWire> => {
    return userWire(await service.removeUser(parseRecordId(request.params.userId, 'user'), orgActor(request)));
  });
}

export function userWire(user: StoredOrgUser): UserWire {
  return { id: user.id, subject: user.subject, role: user.role, created_at: user.createdAt, invited_by: user.invitedBy };
}
