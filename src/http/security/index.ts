/**
 * `_security` endpoints about the caller's own credential: who it is (`_authenticate`) and what
 * it may do (`user/_has_privileges`), for clients and the web console to show only what works.
 */
export { registerSecurityRoutes } from './security-routes.js';
