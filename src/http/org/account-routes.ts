/**
 * The account: `GET /v1/org` shows it, `POST /v1/org` opens it with its first owner (for the
 * service's administrators), `DELETE /v1/org?confirm=<name>` closes it (owners only).
 */
import type { FastifyInstance } from 'fastify';
import { parseAccountInput, type OrgService, type StoredOrgAccount } from '../../auth/index.js';
import { accessOf, principalOf } from '../auth-hook.js';
import { jsonObjectBody } from '../request-body.js';
import { orgActor } from './org-actor.js';
import { userWire, type UserWire } from './user-routes.js';

interface AccountWire {
  name: string;
  created_at: string;
  users?: number;
}

export function registerAccountRoutes(app: FastifyInstance, service: OrgService): void {
  app.get('/v1/org', async (): Promise<AccountWire> => {
    const account = await service.getAccount();
    return { ...accountWire(account), users: account.users };
  });
  app.post('/v1/org', async (request): Promise<{ account: AccountWire; owner: UserWire }> => {
    const input = parseAccountInput(jsonObjectBody(request.body));
    const principal = principalOf(request);
    const creator = principal?.kind === 'user' ? principal.subject : undefined;
    const { account, owner } = await service.createAccount(input, accessOf(request).principalLabel, creator);
    return { account: accountWire(account), owner: userWire(owner) };
  });
  app.delete<{ Querystring: { confirm?: string } }>('/v1/org', async (request): Promise<AccountWire> => {
    return accountWire(await service.closeAccount(request.query.confirm, orgActor(request)));
  });
}

function accountWire(account: StoredOrgAccount): AccountWire {
  return { name: account.name, created_at: account.createdAt };
}

