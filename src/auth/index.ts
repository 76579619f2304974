/**
 * Access control: credentials (bootstrap key, API keys, JWTs) become a principal; roles grant
 * database actions and index actions on name patterns; `authorize` decides, as a pure function,
 * against the one endpoint → permission table. Records live in the metastore; nothing here
 * knows HTTP.
 */
export { INDEX_ACTIONS, DATABASE_ACTIONS, isIndexAction, isDatabaseAction } from './permissions.js';
export type { IndexAction, DatabaseAction, IndexGrant, RoleGrants } from './permissions.js';
export { matchesIndexPattern, indexPatternProblem } from './index-pattern.js';
export type { Principal, BootstrapPrincipal, ApiKeyPrincipal, UserPrincipal } from './principal.js';
export { bootstrapPrincipal, apiKeyPrincipal, userPrincipal } from './principal.js';
export {
  authorize,
  canAccessIndex,
  holdsIndexAction,
  holdsDatabaseAction,
  BOOTSTRAP_RETIRED_REASON,
  BOOTSTRAP_LIMITED_REASON,
} from './authorize.js';
export type { Requirement, Decision } from './authorize.js';
export { checkPrivileges } from './privilege-check.js';
export type { PrivilegeQuestion, PrivilegeAnswer } from './privilege-check.js';
export { ENDPOINT_PERMISSIONS, findEndpointPermission } from './endpoint-permissions.js';
export type { EndpointPermission, HttpMethod } from './endpoint-permissions.js';
export { generateApiKey, hashApiKey, looksLikeApiKey, apiKeyLookupId, apiKeyMatches, API_KEY_PREFIX, API_KEY_LENGTH } from './api-key.js';
export type { NewApiKey } from './api-key.js';
export { credentialFromHeader } from './credentials.js';
export type { PresentedCredential } from './credentials.js';
export { createJwtVerifier, rolesFromClaims, algorithmsForKey, JWT_CLOCK_TOLERANCE_SECONDS, ASYMMETRIC_ALGORITHMS } from './jwt-verifier.js';
export type { JwtVerifier, JwtIdentity } from './jwt-verifier.js';
export { Authenticator, JWT_NOT_CONFIGURED } from './authenticator.js';
export type { AuthOutcome, CredentialRecords, ApiKeyCandidate, AuthenticatorOptions, OrgMemberships } from './authenticator.js';
export { createAuditLog, pathOf } from './audit.js';
export type { AuditLog, RecordEvent, RequestRef } from './audit.js';
export { ALLOW_ALL, DENY_ALL, accessForPrincipal } from './access-context.js';
export type { AccessContext } from './access-context.js';
export {
  isConcreteIndexName,
  forbiddenIndexError,
  assertNamedIndicesPermitted,
  permittedIndices,
  bulkItemForbidden,
} from './index-access.js';
export { RecordConflictError } from './records.js';
export type {
  RbacRepository,
  StoredRole,
  StoredApiKey,
  StoredRoleMapping,
  RoleContent,
  NewStoredRole,
  NewStoredApiKey,
  NewStoredRoleMapping,
} from './records.js';
export { parseRoleInput, parseApiKeyInput, parseRoleMappingInput, parseRecordId } from './record-validation.js';
export type { RoleInput, ApiKeyInput, RoleMappingInput } from './record-validation.js';
export { RbacService } from './rbac-service.js';
export type { RoleView, ApiKeyView, RoleMappingView, RbacServiceOptions } from './rbac-service.js';
export * from './org/index.js';
export { checkClusterSecret, CLUSTER_SECRET_HEADER, type ClusterSecretPolicy, type ClusterSecretDecision } from './cluster-secret.js';
