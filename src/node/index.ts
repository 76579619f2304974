/**
 * The composition root: the only module that sees every other one. startNode() builds and
 * starts the roles of this process from a validated Config and returns a handle to stop them.
 */
export { startNode } from './node.js';
export type { RunningNode } from './node.js';
