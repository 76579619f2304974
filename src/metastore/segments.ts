/**
 * Segments: one row per segment file of an index. A row is live until compaction replaces it
 * or its index is deleted; it then stays, marked deleted, until garbage collection has removed
 * the file and purges the row.
 */
import type { Kysely, Transaction } from 'kysely';
import { ConflictError, IndexNotFoundError, ResourceExistsError } from '../common/errors.js';
import type { MetastoreSchema, SegmentsTable } from './schema.js';
import { compareText, int, isUniqueViolation } from './values.js';

const INSERT_CHUNK_ROWS = 500;

export interface SegmentRecord {
  id: string;
  index: string;
  /** compaction level: 0 for flushed segments, higher for merged ones */
  level: number;
  /** where the file lives (object store key) */
  path: string;
  numDocs: number;
  minTs: number;
  maxTs: number;
  maxLid: number;
  sizeBytes: number;
  createdAtMs: number;
  /** `_lid`s of its documents deleted since it was written, ascending; absent when none */
  deletedLids?: readonly number[];
}

/** A segment to add; an `index` field, if present, is ignored in favour of the argument. */
export type NewSegment = Omit<SegmentRecord, 'index'> & { index?: string };

export interface DeletableSegment extends SegmentRecord {
  deletedAtMs: number;
}

export class SegmentRepository {
  constructor(private readonly db: Kysely<MetastoreSchema>) {}

  /** Commits flushed segments; IndexNotFoundError when the index is gone. */
  async addSegments(index: string, rows: readonly NewSegment[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await bumpGeneration(trx, index);
      await insertSegments(trx, index, rows);
    });
  }

  /**
   * Compaction's atomic swap: the removed segments stop being live and the added ones start,
   * together. ConflictError (and no change) when a removed segment is no longer live.
   */
  async replaceSegments(index: string, removedIds: readonly string[], added: readonly NewSegment[], nowMs: number = Date.now()): Promise<void> {
    const removed = [...new Set(removedIds)];
    await this.db.transaction().execute(async (trx) => {
      await bumpGeneration(trx, index);
      if (removed.length > 0) {
        // the guarded update, not a prior read, decides: under concurrent swaps only one sees the rows live
        const result = await trx
          .updateTable('segments')
          .set({ deleted_at_ms: int(nowMs, 'nowMs') })
          .where('index_name', '=', index)
          .where('id', 'in', removed)
          .where('deleted_at_ms', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows !== BigInt(removed.length)) {
          throw new ConflictError(`segments of index [${index}] to replace are no longer all live: [${removed.join(',')}]`, 'version_conflict_engine_exception', {
            index,
          });
        }
      }
      await insertSegments(trx, index, added);
    });
  }

  /**
   * Sets the deleted `_lid`s of live segments of an index. ConflictError (and no change) when a
   * named segment is no longer live: another process merged it (see commitMerge), and the
   * caller must take the merged segment in before its deletes can be recorded.
   */
  async updateDeletedLids(index: string, changes: ReadonlyArray<{ segmentId: string; deletedLids: readonly number[] }>): Promise<void> {
    if (changes.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await bumpGeneration(trx, index);
      for (const change of changes) {
        const result = await trx
          .updateTable('segments')
          .set({ deleted_lids: encodeLids(change.deletedLids) })
          .where('index_name', '=', index)
          .where('id', '=', change.segmentId)
          .where('deleted_at_ms', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) {
          throw new ConflictError(`segment [${change.segmentId}] of index [${index}] is no longer live: it was merged`, 'version_conflict_engine_exception', { index });
        }
      }
    });
  }

  /**
   * A merge made by another process than the index's owner (the storage role): like
   * replaceSegments, and the merged segment's deleted `_lid`s are those its inputs hold in the
   * catalog when the swap commits, less `droppedLids` (deleted when the merge read its inputs,
   * so left out of the merged file). Deletes the owner recorded while the merge ran are kept:
   * both go through the index row's lock (bumpGeneration), so a delete update either committed
   * before (and is carried here) or comes after and fails (updateDeletedLids' conflict), and the
   * owner records it again on the merged segment. Returns the merged record as committed.
   */
  async commitMerge(index: string, removedIds: readonly string[], added: NewSegment, droppedLids: readonly number[], nowMs: number = Date.now()): Promise<SegmentRecord> {
    const removed = [...new Set(removedIds)];
    return this.db.transaction().execute(async (trx) => {
      await bumpGeneration(trx, index);
      const rows = await trx
        .selectFrom('segments')
        .select(['id', 'deleted_lids'])
        .where('index_name', '=', index)
        .where('id', 'in', removed)
        .where('deleted_at_ms', 'is', null)
        .execute();
      if (rows.length !== removed.length) {
        throw new ConflictError(`segments of index [${index}] to replace are no longer all live: [${removed.join(',')}]`, 'version_conflict_engine_exception', { index });
      }
      const dropped = new Set(droppedLids);
      const carried = rows.flatMap((r) => decodeLids(r.deleted_lids)).filter((lid) => !dropped.has(lid));
      carried.sort((a, b) => a - b);
      await trx.updateTable('segments').set({ deleted_at_ms: int(nowMs, 'nowMs') }).where('index_name', '=', index).where('id', 'in', removed).execute();
      const record: NewSegment = { ...added, deletedLids: carried };
      await insertSegments(trx, index, [record]);
      const { deletedLids: _all, ...rest } = record;
      return { ...rest, index, ...(carried.length > 0 ? { deletedLids: carried } : {}) };
    });
  }

  /** Live segments, of one index or of all, oldest first. */
  async listSegments(index?: string): Promise<SegmentRecord[]> {
    let query = this.db.selectFrom('segments').selectAll().where('deleted_at_ms', 'is', null);
    if (index !== undefined) query = query.where('index_name', '=', index);
    const rows = await query.execute();
    return rows.sort(bySegmentAge).map(toSegmentRecord);
  }

  /** Marks live segments deleted (their files become garbage); returns how many were live. */
  async markSegmentsDeleted(ids: readonly string[], nowMs: number = Date.now()): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db
      .updateTable('segments')
      .set({ deleted_at_ms: int(nowMs, 'nowMs') })
      .where('id', 'in', [...new Set(ids)])
      .where('deleted_at_ms', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Segments whose files may be removed, oldest deletion first; with `deletedBeforeMs` only those
   * deleted before it, so searches still reading a replaced segment get a grace period.
   */
  async listDeletable(opts: { deletedBeforeMs?: number } = {}): Promise<DeletableSegment[]> {
    let query = this.db.selectFrom('segments').selectAll().where('deleted_at_ms', 'is not', null);
    if (opts.deletedBeforeMs !== undefined) query = query.where('deleted_at_ms', '<', int(opts.deletedBeforeMs, 'deletedBeforeMs'));
    const rows = await query.execute();
    rows.sort((a, b) => a.deleted_at_ms! - b.deleted_at_ms! || compareText(a.id, b.id));
    return rows.map((row) => ({ ...toSegmentRecord(row), deletedAtMs: row.deleted_at_ms! }));
  }

  /** Forgets deleted segments whose files are gone; live rows are never touched. */
  async purgeSegments(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db
      .deleteFrom('segments')
      .where('id', 'in', [...new Set(ids)])
      .where('deleted_at_ms', 'is not', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * Segment changes go through the index row: the update fails for a deleted index and, on
 * PostgreSQL, holds the row lock so a concurrent deleteIndex cannot slip in between.
 */
async function bumpGeneration(trx: Transaction<MetastoreSchema>, index: string): Promise<void> {
  const result = await trx
    .updateTable('indexes')
    .set((eb) => ({ segments_generation: eb('segments_generation', '+', 1) }))
    .where('name', '=', index)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new IndexNotFoundError(index);
}

async function insertSegments(trx: Transaction<MetastoreSchema>, index: string, rows: readonly NewSegment[]): Promise<void> {
  if (rows.length === 0) return;
  const values: SegmentsTable[] = rows.map((s) => ({
    id: s.id,
    index_name: index,
    level: int(s.level, 'level'),
    path: s.path,
    num_docs: int(s.numDocs, 'numDocs'),
    min_ts: int(s.minTs, 'minTs'),
    max_ts: int(s.maxTs, 'maxTs'),
    max_lid: int(s.maxLid, 'maxLid'),
    size_bytes: int(s.sizeBytes, 'sizeBytes'),
    created_at_ms: int(s.createdAtMs, 'createdAtMs'),
    deleted_at_ms: null,
    deleted_lids: encodeLids(s.deletedLids ?? []),
  }));
  try {
    // chunks keep each statement under SQLite's bound-parameter limit
    for (let i = 0; i < values.length; i += INSERT_CHUNK_ROWS) {
      await trx.insertInto('segments').values(values.slice(i, i + INSERT_CHUNK_ROWS)).execute();
    }
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new ResourceExistsError(`a segment id of [${rows.map((r) => r.id).join(',')}] already exists`, 'resource_already_exists_exception', { index });
    }
    throw err;
  }
}

function bySegmentAge(a: SegmentsTable, b: SegmentsTable): number {
  return compareText(a.index_name, b.index_name) || a.created_at_ms - b.created_at_ms || compareText(a.id, b.id);
}

function toSegmentRecord(row: SegmentsTable): SegmentRecord {
  const deletedLids = decodeLids(row.deleted_lids);
  return {
    ...(deletedLids.length > 0 ? { deletedLids } : {}),
    id: row.id,
    index: row.index_name,
    level: row.level,
    path: row.path,
    numDocs: row.num_docs,
    minTs: row.min_ts,
    maxTs: row.max_ts,
    maxLid: row.max_lid,
    sizeBytes: row.size_bytes,
    createdAtMs: row.created_at_ms,
  };
}

/** Ascending `_lid`s as base64 of LEB128 varint gaps (the first against 0); null for none. */
export function encodeLids(lids: readonly number[]): string | null {
  if (lids.length === 0) return null;
  const bytes: number[] = [];
  let previous = 0;
  for (const lid of lids) {
    let gap = lid - previous;
    previous = lid;
    while (gap >= 0x80) {
      bytes.push((gap % 0x80) | 0x80);
      gap = Math.floor(gap / 0x80);
    }
    bytes.push(gap);
  }
  return Buffer.from(bytes).toString('base64');
}

export function decodeLids(text: string | null | undefined): number[] {
  if (text === null || text === undefined || text === '') return [];
  const bytes = Buffer.from(text, 'base64');
  const lids: number[] = [];
  let previous = 0;
  for (let i = 0; i < bytes.length; ) {
    let gap = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[i++]!;
      gap += (b & 0x7f) * scale;
      scale *= 0x80;
      if (b < 0x80) break;
    }
    previous += gap;
    lids.push(previous);
  }
  return lids;
}
