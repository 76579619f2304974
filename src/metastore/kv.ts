/**
 * A small key → JSON value store (table `settings`) for cluster settings and one-off facts
 * such as `bootstrap_consumed`.
 */
import type { Kysely } from 'kysely';
import type { MetastoreSchema } from './schema.js';
import { compareText, toJsonText } from './values.js';

export class KvRepository {
  constructor(private readonly db: Kysely<MetastoreSchema>) {}

  /** The stored value, or undefined when the key is absent (a stored null reads as null). */
  async get(key: string): Promise<unknown> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row ? (JSON.parse(row.value) as unknown) : undefined;
  }

  async put(key: string, value: unknown): Promise<void> {
    const text = toJsonText(value, `value of [${key}]`);
    await this.db
      .insertInto('settings')
      .values({ key, value: text })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
      .execute();
  }

  /** Stores the value only if the key is absent; true when this call stored it (a claim). */
  async putIfAbsent(key: string, value: unknown): Promise<boolean> {
    const result = await this.db
      .insertInto('settings')
      .values({ key, value: toJsonText(value, `value of [${key}]`) })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return result.numInsertedOrUpdatedRows !== undefined && result.numInsertedOrUpdatedRows > 0n;
  }

  /** True when the key existed. */
  async delete(key: string): Promise<boolean> {
    const result = await this.db.deleteFrom('settings').where('key', '=', key).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Entries whose key starts with `prefix` (all when omitted), by key. */
  async list(prefix = ''): Promise<Array<{ key: string; value: unknown }>> {
    const rows = await this.db.selectFrom('settings').selectAll().execute();
    return rows
      .filter((r) => r.key.startsWith(prefix))
      .sort((a, b) => compareText(a.key, b.key))
      .map((r) => ({ key: r.key, value: JSON.parse(r.value) as unknown }));
  }
}
