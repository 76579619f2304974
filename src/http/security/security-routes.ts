/**
 * Elasticsearch's security endpoints a client uses to learn about its own credential:
 * `GET /_security/_authenticate` (who it is, with which roles) and
 * `GET|POST /_security/user/_has_privileges` (which of the privileges it asks about it holds),
 * answered from the principal the auth hook resolved and the decisions that authorize requests.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkPrivileges, type Principal } from '../../auth/index.js';
import { principalOf } from '../auth-hook.js';
import { jsonObjectBody } from '../request-body.js';
import { bodyOf } from '../search/get-body.js';
import { parseHasPrivileges } from './has-privileges-request.js';

interface Realm {
  name: string;
  type: string;
}

interface AuthenticateWire {
  username: string;
  roles: string[];
  full_name: null;
  email: null;
  /** `org_role`: the user's organisation role, when the user is a member */
  metadata: Record<string, unknown>;
  enabled: true;
  authentication_realm: Realm;
  lookup_realm: Realm;
  authentication_type: string;
}

/** Elasticsearch's anonymous user: what every request is while access control is off. */
const ANONYMOUS = { username: '_anonymous', realm: { name: '__anonymous', type: 'anonymous' }, type: 'anonymous' };

function username(principal: Principal | undefined): string {
  if (principal === undefined) return ANONYMOUS.username;
  return principal.kind === 'user' ? principal.subject : principal.label;
}

function authenticateWire(principal: Principal | undefined): AuthenticateWire {
  const who = (realm: Realm, type: string, roles: string[], metadata: Record<string, unknown> = {}): AuthenticateWire => ({
    username: username(principal),
    roles,
    full_name: null,
    email: null,
    metadata,
    enabled: true,
    authentication_realm: realm,
    lookup_realm: realm,
    authentication_type: type,
  });
  if (principal === undefined) return who(ANONYMOUS.realm, ANONYMOUS.type, []);
  const roles = principal.kind === 'bootstrap' ? [] : principal.roles.map((r) => r.name);
  switch (principal.kind) {
    case 'user':
      return who({ name: 'jwt', type: 'jwt' }, 'token', roles, principal.org === undefined ? {} : { org_role: principal.org.role.name });
    case 'api_key':
      return who({ name: '_es_api_key', type: '_es_api_key' }, 'api_key', roles);
    case 'bootstrap':
      return who({ name: 'bootstrap', type: 'bootstrap' }, 'realm', roles);
  }
}

/** `maxBodyBytes`: the largest body read from a GET request (fastify reads only other methods' bodies). */
export function registerSecurityRoutes(app: FastifyInstance, maxBodyBytes: number): void {
  app.get('/_security/_authenticate', async (request) => authenticateWire(principalOf(request)));

  const hasPrivileges = async (request: FastifyRequest) => {
    const principal = principalOf(request);
    const question = parseHasPrivileges(jsonObjectBody(await bodyOf(request, maxBodyBytes)), username(principal));
    const answer = checkPrivileges(principal, question);
    return {
      username: username(principal),
      has_all_requested: answer.hasAllRequested,
      cluster: answer.cluster,
      index: answer.index,
      application: answer.application,
    };
  };
  app.get('/_security/user/_has_privileges', hasPrivileges);
  app.post('/_security/user/_has_privileges', hasPrivileges);
}
