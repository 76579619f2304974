/** What the api role of a cluster is given: no engine, but the routing table and the client for internal calls. */
import type { OrgService, RbacService } from '../../auth/index.js';
import type { ClusterRouting, ClusterWriteBudget, InternalClient } from '../../cluster/index.js';
import type { Config } from '../../config/index.js';
import type { Metastore } from '../../metastore/index.js';
import type { Logger, Metrics } from '../../observability/index.js';
import type { ClusterMembership, Lifecycle } from '../deps.js';

export interface RoutedApiDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  lifecycle: Lifecycle;
  rbac: RbacService;
  org: OrgService;
  metastore: Metastore;
  cluster: ClusterMembership;
  routing: ClusterRouting;
  client: InternalClient;
  /** the bytes waiting for storage on all cache nodes, as last reported (the write budget) */
  writeBudget: ClusterWriteBudget;
}
