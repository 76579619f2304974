/** Helpers shared by the access-control tests. */
export { repoRoot } from '../support/repo-root.js';
