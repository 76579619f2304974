/**
 * Row shapes of the metastore tables as the database holds them (snake_case, JSON as text,
 * booleans as 0/1 integers) so that one schema reads the same on SQLite and PostgreSQL.
 * Repositories convert rows to the camelCase records of the public API.
 */

export interface IndexesTable {
  name: string;
  uuid: string;
  created_at_ms: number;
  /** JSON object */
  settings: string;
  /** JSON object */
  mappings: string;
  /** bumped by every change to the index's segments; the update also locks the index row */
  segments_generation: number;
}

export interface SegmentsTable {
  id: string;
  index_name: string;
  level: number;
  path: string;
  num_docs: number;
  min_ts: number;
  max_ts: number;
  max_lid: number;
  size_bytes: number;
  created_at_ms: number;
  /** null while the segment is live; set when it was replaced or its index deleted */
  deleted_at_ms: number | null;
  /** the `_lid`s of its deleted documents (see encodeLids), or null for none */
  deleted_lids: string | null;
}

export interface AliasesTable {
  alias: string;
  index_name: string;
  /** 1, 0, or null when not set */
  is_write_index: number | null;
  /** JSON query object or null */
  filter: string | null;
  routing: string | null;
}

export interface TemplatesTable {
  name: string;
  /** JSON array of index name patterns */
  index_patterns: string;
  template_order: number;
  /** JSON object: the template as submitted (settings, mappings, aliases, version) */
  body: string;
}

export interface SettingsTable {
  key: string;
  /** JSON value */
  value: string;
}

export interface NodesTable {
  id: string;
  name: string;
  /** comma-separated roles */
  roles: string;
  url: string;
  /** JSON object: the figures the node reported with its last heartbeat */
  stats: string;
  started_at_ms: number;
  heartbeat_at_ms: number;
  /** the node is dead once the database clock passes this */
  lease_expires_at_ms: number;
  /** 1 while the node hands its indexes over to others before it leaves; 0 otherwise */
  draining: number;
}

export interface LeasesTable {
  name: string;
  holder: string;
  /** bumped each time the lease changes hands: a fencing token for what the holder writes */
  epoch: number;
  acquired_at_ms: number;
  expires_at_ms: number;
}

export interface PlacementsTable {
  index_name: string;
  node_id: string;
  /** epoch of the coordinator lease under which the row was written */
  lease_epoch: number;
  placed_at_ms: number;
  /** the node the coordinator asked the owner to hand the index over to, or null */
  moving_to: string | null;
}

export interface MetastoreSchema {
  indexes: IndexesTable;
  segments: SegmentsTable;
  aliases: AliasesTable;
  templates: TemplatesTable;
  settings: SettingsTable;
  nodes: NodesTable;
  leases: LeasesTable;
  placements: PlacementsTable;
}
