/**
 * The processes of one cluster: membership (a heartbeat row per node in the metastore), the
 * coordinator lease (one holder, decided by a conditional update in the database) and the
 * placement of indexes on cache nodes. Every fact lives in the metastore tables; nothing here
 * votes or elects on its own.
 */
export { ClusterMember, COORDINATOR_LEASE, type ClusterMemberOptions, type ClusterView } from './member.js';
export { planPlacements } from './placement.js';
