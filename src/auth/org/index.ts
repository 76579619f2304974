/**
 * The hosted offering's organisation model: one account whose users hold exactly one role each
 * (owner, admin, contributor, viewer, or a custom role), five organisation permissions, the
 * pure rules on who may hand out which role, and the service that applies them to the records.
 */
export { ORG_PERMISSIONS, BILLING_PERMISSIONS, DEFAULT_ORG_ROLES, OWNER, defaultOrgRole, isOrgPermission, isOwnerRole } from './org-permissions.js';
export type { OrgPermission, OrgRole } from './org-permissions.js';
export { mayAssign, mayGrant, leavesNoOwner } from './org-rules.js';
export type { OrgRepository, StoredOrgAccount, StoredOrgUser, StoredOrgRole, BillingCard, StoredInvoice, NewOrgUser, NewInvoice } from './org-records.js';
export {
  parseAccountInput,
  parseOrgUserInput,
  parseRoleChangeInput,
  parseOrgRoleInput,
  parseCardInput,
  parseInvoiceInput,
} from './org-validation.js';
export type { AccountInput, OrgUserInput, OrgRoleInput, CardInput, InvoiceInput } from './org-validation.js';
export { OrgService } from './org-service.js';
export type { OrgActor, OrgMembership, OrgServiceOptions } from './org-service.js';
