/** The organisation member behind a request, as the organisation service needs it. */
import type { FastifyRequest } from 'fastify';
import type { OrgActor } from '../../auth/index.js';
import { ForbiddenError } from '../../common/index.js';
import { principalOf } from '../auth-hook.js';

/**
 * The acting member. The auth hook has already refused anyone else on organisation rows; the
 * check here keeps a handler from ever running for a non-member should a row be wrong.
 */
export function orgActor(request: FastifyRequest): OrgActor {
  const principal = principalOf(request);
  if (principal?.kind !== 'user' || principal.org === undefined) throw new ForbiddenError('only members of the organisation may do this');
  return { label: principal.label, role: principal.org.role };
}
