/**
 * Access control for a key with `manage_security`: roles, API keys (the new key shown once) and
 * role mappings through the /v1 API; for a member of the organisation, through /v1/org, its users
 * (invite, change role, remove with `write:org`), data keys (rotate with `write:api_key`) and
 * billing (`read:billing`).
 */
export { Access } from './access.js';
