/**
 * What the route handlers are given: configuration, observability, the engine of this node and
 * the node's lifecycle. The composition root (src/node) builds it.
 */
import type { Config } from '../config/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import type { Engine, QueryPool } from '../engine/index.js';
import type { OrgService, RbacService } from '../auth/index.js';
import type { Metastore, PlacementRecord } from '../metastore/index.js';
import type { ClusterView } from '../cluster/index.js';

export interface Lifecycle {
  /** true once a graceful shutdown began: readiness fails, liveness still answers */
  readonly shuttingDown: boolean;
}

/** This process in the cluster, and the cluster as the membership table says. */
export interface ClusterMembership {
  readonly nodeId: string;
  readonly roles: readonly string[];
  /** the URL other processes reach this one at */
  readonly advertisedUrl: string;
  view(): Promise<ClusterView>;
  /** as the coordinator lease holder: places an index that has none (see ClusterMember.placeNow) */
  placeNow(index: string): Promise<PlacementRecord>;
}

export interface ApiDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  engine: Engine;
  lifecycle: Lifecycle;
  /** roles, API keys and role mappings (the /v1 API and authentication) */
  rbac: RbacService;
  /** the organisation: account, users, roles, billing (the /v1/org API and users' roles) */
  org: OrgService;
  /** the catalog: index settings, aliases and templates */
  metastore: Metastore;
  /** the query threads (SVC_QUERY_THREADS) */
  queryPool: QueryPool;
  /** membership: the live nodes and the coordinator lease holder */
  cluster: ClusterMembership;
  /**
   * A cache node of a cluster: the bytes waiting for storage on every cache node, this node's
   * `own` included (the write budget is the cluster's). Undefined: this node's are all there is.
   */
  clusterPendingBytes?: (own: number) => number;
}
