/**
 * What the route handlers are given: configuration, observability, the engine of this node and
 * the node's lifecycle. The composition root (src/node) builds it.
 */
import type { Config } from '../config/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import type { Engine } from '../engine/index.js';

export interface Lifecycle {
  /** true once a graceful shutdown began: readiness fails, liveness still answers */
  readonly shuttingDown: boolean;
}

export interface ApiDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  engine: Engine;
  lifecycle: Lifecycle;
}

export type IndexAction = 'read' | 'write' | 'delete';

/** What the actor of a request may do on indexes (allow-all when RBAC is off). */
export interface IndexAccess {
  can(action: IndexAction, index: string): boolean;
}

export const ALLOW_ALL: IndexAccess = { can: () => true };
