/**
 * Talking to the service: the fetch wrapper that adds the credential and turns error bodies into
 * ApiError, the tab's session (its key), and what the key may do (asked, never assumed).
 */
export { ApiError, api, type Api } from './client.js';
export { loadCredential, saveCredential, clearCredential } from './session.js';
export { probeCapabilities, ORG_PERMISSIONS, type Capabilities, type OrgPermission } from './capabilities.js';
export { askPrivileges, indexesWith, type PrivilegeAnswer, type PrivilegeQuestion } from './privileges.js';
export { mappingFields, type MappingResponse } from './mapping.js';
