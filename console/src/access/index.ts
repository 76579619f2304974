/**
 * Access control for a key with `manage_security`: roles, API keys (the new key shown once) and
 * role mappings through the /v1 API; the organisation's account, users and roles where /v1/org answers.
 */
export { Access } from './access.js';
