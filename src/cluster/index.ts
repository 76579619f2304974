/**
 * The processes of one cluster: membership (a heartbeat row per node in the metastore), the
 * coordinator lease (one holder, decided by a conditional update in the database), the
 * placement of indexes on cache nodes, and the data path between processes: internal calls
 * with the cluster secret, where the api role sends each index's requests, and searches spread
 * over cache nodes. Every fact lives in the metastore tables; nothing here votes or elects on
 * its own.
 */
export { ClusterMember, COORDINATOR_LEASE, type ClusterMemberOptions, type ClusterView } from './member.js';
export { planMove, planPlacements, type PlacementOptions, type PlannedMove } from './placement.js';
export { InternalClient, notApplied, remoteError, type InternalRequest, type InternalResponse } from './internal-client.js';
export { ClusterRouting, type ClusterRoutingOptions, type RoutingSnapshot } from './routing.js';
export { targetOrder, type SearchPartRequest, type SearchPartResponse } from './search-parts.js';
export { CacheHoldings } from './cache-holdings.js';
export { Rebalancer, type RebalancerOptions } from './rebalancer.js';
export { drainNode, placedOn, waitDrained, type DrainState } from './drain.js';
export { StorageService, type StorageServiceOptions } from './storage-service.js';
export { CompactionSchedule, storageNodes, type CompactionScheduleOptions } from './compaction-schedule.js';
export { ClusterWriteBudget, UNFLUSHED_BYTES_STAT } from './write-budget.js';
