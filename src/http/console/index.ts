/**
 * The web console at `/_console/`: the static files `scripts/build.mjs` bundles from `console/`,
 * served from memory; every call they make goes through the ordinary API and its access control.
 */
export { registerConsoleRoutes, CONSOLE_PATH } from './console-route.js';
export { loadConsoleFiles, type ConsoleFile } from './console-files.js';
