/**
 * The pieces of index metadata that several answers share (`GET /{index}`, `_mapping`,
 * `_settings`, `_alias`, cluster state): an index's mapping as a `properties` tree, its settings
 * with the fixed ones, and its aliases, read once per request from the engine and the metastore.
 */
import { AliasTable, toProperties, type IndexShard } from '../../engine/index.js';
import type { AliasRecord, IndexRecord } from '../../metastore/index.js';
import type { ApiDeps } from '../deps.js';
import type { IndexNames } from '../search/target-indices.js';
import { renderAlias } from './alias-model.js';
import { indexSettings, type FlatSettings } from './settings.js';

/** `{"properties": {...}}`, or `{}` for an index without fields; `typed` wraps it in `_doc`. */
export function mappingOf(shard: IndexShard, typed = false): Record<string, unknown> {
  const properties = toProperties(shard.mapping.fields(), undefined, (name) => shard.mapping.multiFieldParent(name));
  if (Object.keys(properties).length === 0) return {};
  return typed ? { _doc: { properties } } : { properties };
}

export interface CatalogSnapshot {
  records: ReadonlyMap<string, IndexRecord>;
  aliases: readonly AliasRecord[];
}

export async function catalogSnapshot(deps: ApiDeps): Promise<CatalogSnapshot> {
  const [records, aliases] = await Promise.all([deps.metastore.indexes.listIndexes(), deps.metastore.aliases.listAliases()]);
  return { records: new Map(records.map((r) => [r.name, r])), aliases };
}

/**
 * The index names and aliases that requests about the catalog (alias changes and listings,
 * `_resolve/index`) resolve against: the engine's in one process, which holds every index; the
 * metastore's on a cache node of a cluster, which holds some.
 */
export async function catalogNames(deps: ApiDeps): Promise<IndexNames> {
  if (deps.config.cluster.allRoles) return deps.engine;
  const { records, aliases } = await catalogSnapshot(deps);
  const names = [...records.keys()].sort();
  const table = new AliasTable();
  table.set(aliases.map((r) => ({ alias: r.alias, index: r.index, isWriteIndex: r.isWriteIndex })));
  return { indexNames: () => names, aliasMap: () => table.map() };
}

/** The index's settings as reported: stored settings (the metastore's, which PUT _settings changes) plus the fixed ones. */
export function settingsOf(shard: IndexShard, snapshot: CatalogSnapshot): FlatSettings {
  const record = snapshot.records.get(shard.name);
  return indexSettings({ name: shard.name, uuid: shard.uuid, createdAtMs: shard.createdAtMs, settings: record?.settings ?? shard.settings });
}

/** `{"alias": {...}}` for the aliases of one index. */
export function aliasesOf(index: string, snapshot: CatalogSnapshot): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const row of snapshot.aliases) if (row.index === index) out[row.alias] = renderAlias(row);
  return out;
}

/** `{"acknowledged": true}` */
export const ACKNOWLEDGED = Object.freeze({ acknowledged: true });

/** The `_shards` header of answers over whole indexes: one primary each, no replica. */
export function shardsHeader(indexCount: number): { total: number; successful: number; failed: number } {
  return { total: indexCount, successful: indexCount, failed: 0 };
}

/** What an index holds, as `_stats` and `_cat/indices` report it. */
export interface IndexTotals {
  docs: number;
  /** deleted and replaced documents the segments still hold, until a merge drops them */
  deletedDocs: number;
  /** segment files plus the memtables not yet flushed (their approximate bytes) */
  storeBytes: number;
  /** segment files plus the memtables not yet flushed, as Elasticsearch counts unflushed segments */
  segments: number;
}

export function totalsOf(shard: IndexShard): IndexTotals {
  const unflushed = shard.unflushedMemtables;
  return { docs: shard.docCount, deletedDocs: shard.deletedDocCount, storeBytes: shard.storeBytes + unflushed.bytes, segments: shard.segmentRecords().length + unflushed.count };
}
