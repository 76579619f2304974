/**
 * The coordinator's catalog: indexes, segments, aliases, templates and settings, one schema on
 * SQLite (embedded, a file in the data directory) or PostgreSQL, through Kysely. Adding a table
 * (e.g. RBAC): a migration file in migrations/ appended to MIGRATIONS, its row type in schema.ts,
 * a repository file here, and a field for it on Metastore in metastore.ts. Cluster membership
 * (nodes, leases, placements) is stamped with the database's clock (db-clock.ts). On SQLite the
 * writes run on a thread of their own (sqlite/), so that a commit's fsync never stops the event loop.
 */
export { Metastore, openMetastore, type MetastoreConfig, type MetastoreDialect } from './metastore.js';
export { IndexRepository, type IndexRecord, type NewIndex } from './indexes.js';
export { SegmentRepository, type DeletableSegment, type NewSegment, type SegmentRecord } from './segments.js';
export { AliasRepository, type AliasAction, type AliasRecord, type AliasSpec } from './aliases.js';
export { TemplateRepository, type NewTemplate, type TemplateRecord } from './templates.js';
export { KvRepository } from './kv.js';
export { RbacStore, BOOTSTRAP_CONSUMED_KEY } from './rbac-store.js';
export { OrgStore } from './org-store.js';
export { NodeRepository, type NodeHeartbeat, type NodeRecord } from './nodes.js';
export { LeaseRepository, type LeaseAttempt, type LeaseState } from './leases.js';
export { PlacementRepository, type PlacementChange, type PlacementRecord } from './placements.js';
export type { JsonObject } from './values.js';
