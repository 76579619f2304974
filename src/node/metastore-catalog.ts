/** Adapts the metastore's repositories to the catalog interface the engine needs. */
import type { EngineCatalog, IndexRecord, SegmentRecord } from '../engine/index.js';
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
