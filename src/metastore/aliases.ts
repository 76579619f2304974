/**
 * Aliases: names that point at one or more indexes, optionally with a filter, routing and a
 * write index. Changes come as a list of add/remove actions applied in one transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import { BadRequestError, IndexNotFoundError, NotFoundError } from '../common/errors.js';
import type { AliasesTable, MetastoreSchema } from './schema.js';
import { compareText, parseJsonObject, toJsonText, type JsonObject } from './values.js';

export interface AliasSpec {
  alias: string;
  /** true makes this index the alias' write index; at most one index per alias may have it */
  isWriteIndex?: boolean | null;
  /** query object that searches through the alias apply */
  filter?: object | null;
  routing?: string | null;
}

export interface AliasRecord {
  alias: string;
  index: string;
  isWriteIndex: boolean | null;
  filter: JsonObject | null;
  routing: string | null;
}

/** Actions name concrete indexes and aliases: wildcards are resolved by the caller. */
export type AliasAction =
  | ({ type: 'add'; index: string } & AliasSpec)
  | { type: 'remove'; index: string; alias: string; /** default true: a missing alias is an error */ mustExist?: boolean };

export class AliasRepository {
  constructor(private readonly db: Kysely<MetastoreSchema>) {}

  /** Applies every action or none. */
  async setAliases(actions: readonly AliasAction[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const touched = new Set<string>();
      for (const action of actions) {
        touched.add(action.alias);
        if (action.type === 'add') {
          const index = await trx.selectFrom('indexes').select('name').where('name', '=', action.index).executeTakeFirst();
          if (!index) throw new IndexNotFoundError(action.index);
          await putAlias(trx, action.index, action);
          continue;
        }
        const removed = await trx
          .deleteFrom('aliases')
          .where('alias', '=', action.alias)
          .where('index_name', '=', action.index)
          .executeTakeFirst();
        if (removed.numDeletedRows === 0n && action.mustExist !== false) {
          throw new NotFoundError(`aliases [${action.alias}] missing`, 'aliases_not_found_exception', {
            'resource.type': 'aliases',
            'resource.id': action.alias,
          });
        }
      }
      await checkWriteIndexes(trx, [...touched]);
    });
  }

  /** Alias rows, by alias then index; narrowed to one index and/or one alias when given. */
  async listAliases(filter: { index?: string; alias?: string } = {}): Promise<AliasRecord[]> {
    let query = this.db.selectFrom('aliases').selectAll();
    if (filter.index !== undefined) query = query.where('index_name', '=', filter.index);
    if (filter.alias !== undefined) query = query.where('alias', '=', filter.alias);
    const rows = await query.execute();
    return rows.sort((a, b) => compareText(a.alias, b.alias) || compareText(a.index_name, b.index_name)).map(toAliasRecord);
  }
}

/** Adds the alias to the index, or replaces its properties when it is already there. */
export async function putAlias(trx: Transaction<MetastoreSchema>, index: string, spec: AliasSpec): Promise<void> {
  if (spec.alias === index) {
    throw new BadRequestError(`Invalid alias name [${spec.alias}]: an index or data stream exists with the same name as the alias`, 'invalid_alias_name_exception');
  }
  const clash = await trx.selectFrom('indexes').select('name').where('name', '=', spec.alias).executeTakeFirst();
  if (clash) {
    throw new BadRequestError(`Invalid alias name [${spec.alias}]: an index or data stream exists with the same name as the alias`, 'invalid_alias_name_exception');
  }
  const row: AliasesTable = {
    alias: spec.alias,
    index_name: index,
    is_write_index: spec.isWriteIndex === undefined || spec.isWriteIndex === null ? null : spec.isWriteIndex ? 1 : 0,
    filter: spec.filter === undefined || spec.filter === null ? null : toJsonText(spec.filter, 'alias filter'),
    routing: spec.routing ?? null,
  };
  await trx
    .insertInto('aliases')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['alias', 'index_name']).doUpdateSet({ is_write_index: row.is_write_index, filter: row.filter, routing: row.routing }),
    )
    .execute();
}

/** Fails the transaction when one of the aliases ends up with more than one write index. */
export async function checkWriteIndexes(trx: Transaction<MetastoreSchema>, aliases: string[]): Promise<void> {
  if (aliases.length === 0) return;
  const rows = await trx
    .selectFrom('aliases')
    .select(['alias', 'index_name'])
    .where('is_write_index', '=', 1)
    .where('alias', 'in', aliases)
    .execute();
  rows.sort((a, b) => compareText(a.index_name, b.index_name));
  const byAlias = new Map<string, string[]>();
  for (const r of rows) byAlias.set(r.alias, [...(byAlias.get(r.alias) ?? []), r.index_name]);
  for (const [alias, indexes] of byAlias) {
    if (indexes.length > 1) {
      throw new BadRequestError(`alias [${alias}] has more than one write index [${indexes.join(',')}]`, 'illegal_state_exception');
    }
  }
}

function toAliasRecord(row: AliasesTable): AliasRecord {
  return {
    alias: row.alias,
    index: row.index_name,
    isWriteIndex: row.is_write_index === null ? null : row.is_write_index === 1,
    filter: row.filter === null ? null : parseJsonObject(row.filter, 'alias filter'),
    routing: row.routing,
  };
}
