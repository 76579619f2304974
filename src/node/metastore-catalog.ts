/** Adapts the metastore's repositories to the catalog interface the engine needs. */
import type { EngineCatalog, IndexRecord, SegmentRecord } from '../engine/index.js';
import type { Metastore } from '../metastore/index.js';

export function metastoreCatalog(metastore: Metastore): EngineCatalog {
  return {
    async listIndexes(): Promise<IndexRecord[]> {
      const rows = await metastore.listIndexes();
      return rows.map((r) => ({
        name: r.name,
        uuid: r.uuid,
        createdAtMs: r.createdAtMs,
        mappings: r.mappings,
        settings: r.settings as Record<string, unknown>,
      }));
    },
    async createIndex(record: IndexRecord): Promise<void> {
      await metastore.createIndex({
        name: record.name,
        uuid: record.uuid,
        createdAtMs: record.createdAtMs,
        settings: record.settings,
        mappings: (record.mappings ?? {}) as object,
      });
    },
    async deleteIndex(name: string): Promise<void> {
      await metastore.deleteIndex(name);
    },
    async listSegments(index: string): Promise<SegmentRecord[]> {
      return metastore.listSegments(index);
    },
    async commitSegment(segment: SegmentRecord, mappings: unknown): Promise<void> {
      await metastore.updateIndexMappings(segment.index, mappings as object);
      await metastore.addSegments(segment.index, [segment]);
    },
    async replaceSegments(index: string, removedIds: string[], added: SegmentRecord): Promise<void> {
      await metastore.replaceSegments(index, removedIds, [added]);
    },
    async updateMappings(index: string, mappings: unknown): Promise<void> {
      await metastore.updateIndexMappings(index, mappings as object);
    },
  };
}
