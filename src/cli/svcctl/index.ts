/**
 * svcctl: administration from the command line over the service's /v1 RBAC API. Settings come
 * from SVC_URL and SVC_API_KEY only; exit codes: 0 done, 1 failed, 2 usage, 3 unreachable,
 * 4 credential or permission refused, 5 conflict.
 */
export { runSvcctl } from './program.js';
export { readSvcctlEnv, DEFAULT_SVC_URL, type SvcctlEnv } from './env.js';
export { CliError, EXIT_FAILURE, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_DENIED, EXIT_CONFLICT } from './cli-error.js';
export { ADMIN_ROLE } from './rbac-commands.js';
export type { Io } from './rbac-commands.js';
