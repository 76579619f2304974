/**
 * Index templates (the legacy `_template` kind): name, index name patterns, order, and the
 * body as submitted. Matching a new index against patterns is the caller's business.
 */
import type { Kysely } from 'kysely';
import { NotFoundError, ResourceExistsError } from '../common/errors.js';
import type { MetastoreSchema, TemplatesTable } from './schema.js';
import { compareText, int, parseJsonArray, parseJsonObject, toJsonText, type JsonObject } from './values.js';

export interface TemplateRecord {
  name: string;
  indexPatterns: string[];
  /** lower orders apply first, higher ones override them */
  order: number;
  /** the template as submitted: settings, mappings, aliases, version */
  body: JsonObject;
}

export interface NewTemplate {
  name: string;
  indexPatterns: readonly string[];
  order?: number;
  body: object;
}

export class TemplateRepository {
  constructor(private readonly db: Kysely<MetastoreSchema>) {}

  /** Creates or replaces; with `create`, ResourceExistsError when the name is taken. */
  async putTemplate(template: NewTemplate, opts: { create?: boolean } = {}): Promise<void> {
    const row: TemplatesTable = {
      name: template.name,
      index_patterns: toJsonText(template.indexPatterns, 'index patterns'),
      template_order: int(template.order ?? 0, 'order'),
      body: toJsonText(template.body, 'template body'),
    };
    if (opts.create) {
      const result = await this.db
        .insertInto('templates')
        .values(row)
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst();
      if (result.numInsertedOrUpdatedRows === 0n) {
        throw new ResourceExistsError(`index_template [${template.name}] already exists`, 'illegal_argument_exception');
      }
      return;
    }
    await this.db
      .insertInto('templates')
      .values(row)
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({ index_patterns: row.index_patterns, template_order: row.template_order, body: row.body }),
      )
      .execute();
  }

  async getTemplate(name: string): Promise<TemplateRecord | undefined> {
    const row = await this.db.selectFrom('templates').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toTemplateRecord(row) : undefined;
  }

  /** All templates in the order they apply: by order, then name. */
  async listTemplates(): Promise<TemplateRecord[]> {
    const rows = await this.db.selectFrom('templates').selectAll().execute();
    return rows.sort((a, b) => a.template_order - b.template_order || compareText(a.name, b.name)).map(toTemplateRecord);
  }

  /** NotFoundError (`index_template_missing_exception`) when absent. */
  async deleteTemplate(name: string): Promise<void> {
    const result = await this.db.deleteFrom('templates').where('name', '=', name).executeTakeFirst();
    if (result.numDeletedRows === 0n) {
      throw new NotFoundError(`index_template [${name}] missing`, 'index_template_missing_exception');
    }
  }
}

function toTemplateRecord(row: TemplatesTable): TemplateRecord {
  return {
    name: row.name,
    indexPatterns: parseJsonArray(row.index_patterns, 'index patterns').map(String),
    order: row.template_order,
    body: parseJsonObject(row.body, 'template body'),
  };
}
