/**
 * The audit trail: one structured log line (`audit: true`) per rejected credential, denied
 * permission and change to a role, API key or role mapping. Actors are named by a label
 * (`api_key:<id>`, `bootstrap`, `user:<sub>`), never by the credential itself.
 */
import type { Logger } from '../observability/index.js';

export type RecordEvent =
  | 'role.created'
  | 'role.updated'
  | 'role.deleted'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'role_mapping.created'
  | 'role_mapping.updated'
  | 'role_mapping.deleted'
  | 'api_key.rotated'
  | 'org.created'
  | 'org.closed'
  | 'org_user.invited'
  | 'org_user.role_changed'
  | 'org_user.removed'
  | 'org_role.created'
  | 'org_role.updated'
  | 'org_role.deleted'
  | 'billing.card_updated'
  | 'billing.invoice_recorded';

export interface RequestRef {
  method: string;
  /** path without the query string, so that nothing a client puts in parameters is logged */
  path: string;
  ip: string;
}

export interface AuditLog {
  credentialRejected(request: RequestRef, reason: string): void;
  permissionDenied(request: RequestRef, actor: string, reason: string): void;
  /** `id` is absent for records known by name alone (the account, custom roles, the card) */
  recordChanged(event: RecordEvent, actor: string, record: { id?: number; name: string }): void;
}

export function createAuditLog(logger: Logger): AuditLog {
  const log = logger.child({ audit: true });
  return {
    credentialRejected(request, reason) {
      log.warn({ event: 'authentication_failed', method: request.method, path: request.path, ip: request.ip, reason }, 'credential rejected');
    },
    permissionDenied(request, actor, reason) {
      log.warn({ event: 'access_denied', actor, method: request.method, path: request.path, ip: request.ip, reason }, 'permission denied');
    },
    recordChanged(event, actor, record) {
      log.info({ event, actor, id: record.id, name: record.name }, event.replace('.', ' ').replaceAll('_', ' '));
    },
  };
}

/** Strips the query string from a request URL. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
