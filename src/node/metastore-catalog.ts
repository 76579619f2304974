/** Adapts the metastore's repositories to the catalog interface the engine needs. */
import type { EngineCatalog, IndexRecord, SegmentRecord } from '../engine/index.js';
import { ServiceUnavailableError } from '../common/index.js';
import type { Metastore } from '../metastore/index.js';

export function metastoreCatalog(metastore: Metastore): EngineCatalog {
  return {
    async listIndexes(): Promise<IndexRecord[]> {
      const rows = await metastore.indexes.listIndexes();
      return rows.map((r) => ({
        name: r.name,
        uuid: r.uuid,
        createdAtMs: r.createdAtMs,
        // an index created without a mapping stores `{}`: the engine starts from an empty one
        mappings: Object.keys(r.mappings).length > 0 ? r.mappings : null,
        settings: r.settings,
      }));
    },
    async createIndex(record: IndexRecord): Promise<void> {
      await metastore.indexes.createIndex({
        name: record.name,
        uuid: record.uuid,
        createdAtMs: record.createdAtMs,
        settings: record.settings,
        mappings: (record.mappings ?? {}) as object,
      });
    },
    async deleteIndex(name: string): Promise<void> {
      await metastore.indexes.deleteIndex(name);
    },
    async listSegments(index: string): Promise<SegmentRecord[]> {
      return metastore.segments.listSegments(index);
    },
    async commitSegment(segment: SegmentRecord, mappings: unknown): Promise<void> {
      await metastore.indexes.updateIndexMappings(segment.index, mappings as object);
      await metastore.segments.addSegments(segment.index, [segment]);
    },
    async replaceSegments(index: string, removedIds: string[], added: SegmentRecord): Promise<void> {
      await metastore.segments.replaceSegments(index, removedIds, [added]);
    },
    async updateMappings(index: string, mappings: unknown): Promise<void> {
      await metastore.indexes.updateIndexMappings(index, mappings as object);
    },
    async updateDeletedLids(index, changes): Promise<void> {
      await metastore.segments.updateDeletedLids(index, changes);
    },
  };
}

/**
 * The catalog of a cache node in a cluster: segment commits of an index are refused (the flush
 * fails and its documents stay in the write-ahead log) unless `mayCommit` says the index is
 * still this node's, so that a node whose lease lapsed does not commit what the node its index
 * moved to recovers from its log.
 */
export function fencedCatalog(catalog: EngineCatalog, mayCommit: (index: string) => boolean): EngineCatalog {
  const check = (index: string) => {
    if (!mayCommit(index)) throw new ServiceUnavailableError(`index [${index}] may be held by another node now: nothing of it is committed here`);
  };
  return {
    ...catalog,
    async commitSegment(segment, mappings) {
      check(segment.index);
      return catalog.commitSegment(segment, mappings);
    },
    async replaceSegments(index, removedIds, added) {
      check(index);
      return catalog.replaceSegments(index, removedIds, added);
    },
    async updateMappings(index, mappings) {
      check(index);
      return catalog.updateMappings(index, mappings);
    },
    async updateDeletedLids(index, changes) {
      check(index);
      return catalog.updateDeletedLids(index, changes);
    },
  };
}
