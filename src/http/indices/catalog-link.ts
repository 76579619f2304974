/**
 * Keeps the engine in step with the metastore's aliases and templates: the engine's alias table
 * (index resolution for searches, write indexes for bulk) is reloaded after every alias change,
 * and indexes that writes create on demand (when `action.auto_create_index` allows) start from
 * the matching templates, whose aliases are then added.
 */
import type { AliasSpec, Metastore } from '../../metastore/index.js';
import type { Engine, IndexDefaults } from '../../engine/index.js';
import type { Logger } from '../../observability/index.js';
import { clusterSettingsOf } from './cluster-settings.js';
import { composeIndex, templatesFor } from './template-model.js';

export interface CatalogLink {
  engine: Engine;
  metastore: Metastore;
  logger: Logger;
}

/** Syncs started and applied, per engine: a slow sync never overwrites a newer one. */
const generations = new WeakMap<Engine, { started: number; applied: number }>();

/** Reloads the engine's alias table from the metastore. */
export async function syncAliases(engine: Engine, metastore: Metastore): Promise<void> {
  let gen = generations.get(engine);
  if (!gen) generations.set(engine, (gen = { started: 0, applied: 0 }));
  const mine = ++gen.started;
  const rows = await metastore.aliases.listAliases();
  if (mine < gen.applied) return;
  gen.applied = mine;
  engine.setAliases(rows.map((r) => ({ alias: r.alias, index: r.index, isWriteIndex: r.isWriteIndex })));
}

/** Adds aliases to a new index, then reloads the alias table. */
export async function addAliases(link: Pick<CatalogLink, 'engine' | 'metastore'>, index: string, aliases: readonly AliasSpec[]): Promise<void> {
  if (aliases.length === 0) return;
  await link.metastore.aliases.setAliases(aliases.map((spec) => ({ type: 'add' as const, index, ...spec })));
  await syncAliases(link.engine, link.metastore);
}

/** Index defaults from the templates, for indexes created by writes. */
export function templateIndexDefaults(link: CatalogLink): IndexDefaults {
  return {
    async initFor(name) {
      await clusterSettingsOf(link.metastore).checkAutoCreate(name);
      const { settings, fields } = composeIndex(name, templatesFor(name, await link.metastore.templates.listTemplates()));
      return { settings, fields };
    },
    async created(name) {
      try {
        const { aliases } = composeIndex(name, templatesFor(name, await link.metastore.templates.listTemplates()));
        await addAliases(link, name, aliases);
      } catch (err) {
        // the index exists and takes the write; only the template's aliases are missing
        link.logger.warn({ err, index: name }, 'aliases of the matching templates could not be added to the new index');
      }
    },
  };
}

/** At node start: load the aliases and let writes create indexes from templates. */
export async function connectIndexCatalog(link: CatalogLink): Promise<void> {
  await syncAliases(link.engine, link.metastore);
  link.engine.setIndexDefaults(templateIndexDefaults(link));
}
