/**
 * Indexes: name, uuid, creation time, settings and mappings as JSON objects. Deleting an index
 * drops its aliases and hands its segments to garbage collection in the same transaction.
 */
import type { Kysely } from 'kysely';
import { IndexNotFoundError, InvalidIndexNameError, ResourceExistsError } from '../common/errors.js';
import { checkWriteIndexes, putAlias, type AliasSpec } from './aliases.js';
import type { IndexesTable, MetastoreSchema } from './schema.js';
import { compareText, int, isUniqueViolation, parseJsonObject, toJsonText, type JsonObject } from './values.js';

export interface NewIndex {
  name: string;
  uuid: string;
  createdAtMs: number;
  settings: object;
  mappings: object;
  aliases?: readonly AliasSpec[];
}

export interface IndexRecord {
  name: string;
  uuid: string;
  createdAtMs: number;
  settings: JsonObject;
  mappings: JsonObject;
  /** increases with every change to the index's segments */
  segmentsGeneration: number;
}

export class IndexRepository {
  constructor(private readonly db: Kysely<MetastoreSchema>) {}

  /** Creates the index with its aliases; ResourceExistsError when the name is taken. */
  async createIndex(index: NewIndex): Promise<IndexRecord> {
    const row: IndexesTable = {
      name: index.name,
      uuid: index.uuid,
      created_at_ms: int(index.createdAtMs, 'createdAtMs'),
      settings: toJsonText(index.settings, 'index settings'),
      mappings: toJsonText(index.mappings, 'index mappings'),
      segments_generation: 0,
    };
    await this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('indexes').select(['name', 'uuid']).where('name', '=', index.name).executeTakeFirst();
      if (existing) throw indexExists(existing.name, existing.uuid);
      const alias = await trx.selectFrom('aliases').select('alias').where('alias', '=', index.name).executeTakeFirst();
      if (alias) throw new InvalidIndexNameError(index.name, 'already exists as alias');
      try {
        await trx.insertInto('indexes').values(row).execute();
      } catch (err) {
        // another coordinator created it between the check and the insert
        if (isUniqueViolation(err)) throw indexExists(index.name, index.uuid);
        throw err;
      }
      for (const spec of index.aliases ?? []) await putAlias(trx, index.name, spec);
      await checkWriteIndexes(trx, (index.aliases ?? []).map((a) => a.alias));
    });
    return toIndexRecord(row);
  }

  async getIndex(name: string): Promise<IndexRecord | undefined> {
    const row = await this.db.selectFrom('indexes').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toIndexRecord(row) : undefined;
  }

  /** All indexes by name. */
  async listIndexes(): Promise<IndexRecord[]> {
    const rows = await this.db.selectFrom('indexes').selectAll().execute();
    return rows.sort((a, b) => compareText(a.name, b.name)).map(toIndexRecord);
  }

  /** Replaces the stored mappings (callers merge); IndexNotFoundError when absent. */
  async updateIndexMappings(name: string, mappings: object): Promise<void> {
    const result = await this.db
      .updateTable('indexes')
      .set({ mappings: toJsonText(mappings, 'index mappings') })
      .where('name', '=', name)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new IndexNotFoundError(name);
  }

  /** Replaces the stored settings (callers merge); IndexNotFoundError when absent. */
  async updateIndexSettings(name: string, settings: object): Promise<void> {
    const result = await this.db
      .updateTable('indexes')
      .set({ settings: toJsonText(settings, 'index settings') })
      .where('name', '=', name)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new IndexNotFoundError(name);
  }

  /**
   * Deletes the index and its aliases; its live segments become deletable (listDeletable) so
   * that garbage collection removes their files. IndexNotFoundError when absent.
   */
  async deleteIndex(name: string, nowMs: number = Date.now()): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('indexes').where('name', '=', name).executeTakeFirst();
      if (result.numDeletedRows === 0n) throw new IndexNotFoundError(name);
      await trx.deleteFrom('aliases').where('index_name', '=', name).execute();
      await trx
        .updateTable('segments')
        .set({ deleted_at_ms: int(nowMs, 'nowMs') })
        .where('index_name', '=', name)
        .where('deleted_at_ms', 'is', null)
        .execute();
    });
  }
}

function indexExists(name: string, uuid: string): ResourceExistsError {
  return new ResourceExistsError(`index [${name}/${uuid}] already exists`, 'resource_already_exists_exception', {
    index: name,
    index_uuid: uuid,
  });
}

function toIndexRecord(row: IndexesTable): IndexRecord {
  return {
    name: row.name,
    uuid: row.uuid,
    createdAtMs: row.created_at_ms,
    settings: parseJsonObject(row.settings, 'index settings'),
    mappings: parseJsonObject(row.mappings, 'index mappings'),
    segmentsGeneration: row.segments_generation,
  };
}
