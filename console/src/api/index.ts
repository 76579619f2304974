/**
 * Talking to the service: the fetch wrapper that adds the credential and turns error bodies into
 * ApiError, the tab's session (its key), and what the key may see (probed, never assumed).
 */
export { ApiError, api, type Api } from './client.js';
export { loadCredential, saveCredential, clearCredential } from './session.js';
export { probeCapabilities, type Capabilities } from './capabilities.js';
export { mappingFields, type MappingResponse } from './mapping.js';
