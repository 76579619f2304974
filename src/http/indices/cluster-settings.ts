/**
 * Cluster settings (`GET|PUT /_cluster/settings`): persistent ones in the metastore (they survive
 * a restart and are shared by every node of the catalog), transient ones in this node's memory
 * (gone at restart, as after a full cluster restart of Elasticsearch). A transient value wins
 * over a persistent one. `action.auto_create_index` is obeyed by writes that would create an
 * index; the other settings taken are stored and reported only (see docs/api.md).
 */
import { BadRequestError, IndexNotFoundError } from '../../common/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import type { KvRepository, Metastore } from '../../metastore/index.js';
import { flattenSettings, matchesAny, type FlatSettings } from './settings.js';

export const AUTO_CREATE_INDEX = 'action.auto_create_index';
const PERSISTENT_KEY = 'cluster_settings.persistent';

/** The cluster settings taken; a trailing `.*` stands for a group. */
const KNOWN_CLUSTER_SETTINGS = [
  AUTO_CREATE_INDEX,
  'cluster.routing.allocation.*',
  'cluster.routing.rebalance.enable',
  'cluster.info.update.interval',
  'cluster.max_shards_per_node',
  'indices.recovery.*',
  'logger.*',
  'xpack.monitoring.collection.enabled',
];

export type SettingsScope = 'persistent' | 'transient';

export interface ClusterSettingsView {
  persistent: FlatSettings;
  transient: FlatSettings;
}

/** `action.auto_create_index` parsed: on or off, or patterns tried in order (`+` allows, `-` forbids). */
export interface AutoCreate {
  text: string;
  allowed: boolean;
  patterns: Array<{ match: RegExp; pattern: string; allow: boolean }>;
}

/** Parses `action.auto_create_index` as Elasticsearch 7.10 does. */
export function parseAutoCreate(text: string): AutoCreate {
  if (text === 'true' || text === 'false') return { text, allowed: text === 'true', patterns: [] };
  const patterns: AutoCreate['patterns'] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') {
      throw new BadRequestError(`Can't parse [${text}] for setting [${AUTO_CREATE_INDEX}] must be either [true, false, or a comma separated list of index patterns]`);
    }
    const sign = part[0] === '+' || part[0] === '-' ? part[0] : '';
    const pattern = part.slice(sign.length);
    if (pattern === '') throw new BadRequestError(`Can't parse [${text}] for setting [${AUTO_CREATE_INDEX}] must contain an index name after [${sign}]`);
    patterns.push({ match: wildcardToRegExp(pattern), pattern, allow: sign !== '-' });
  }
  return { text, allowed: true, patterns };
}

function refused(index: string, why: string): IndexNotFoundError {
  return new IndexNotFoundError(index, why);
}

/** Throws when the setting forbids creating `index` on demand: the first matching pattern decides. */
export function checkAutoCreate(rule: AutoCreate, index: string): void {
  if (!rule.allowed) throw refused(index, `[${AUTO_CREATE_INDEX}] is [false]`);
  if (rule.patterns.length === 0) return;
  for (const { match, pattern, allow } of rule.patterns) {
    if (!match.test(index)) continue;
    if (allow) return;
    throw refused(index, `[${AUTO_CREATE_INDEX}] contains [-${pattern}] which forbids automatic creation of the index`);
  }
  throw refused(index, `[${AUTO_CREATE_INDEX}] ([${rule.text}]) doesn't match`);
}

function stringValue(key: string, value: FlatSettings[string]): string | null {
  if (value === null) return null;
  if (Array.isArray(value)) return value.join(',');
  if (key === AUTO_CREATE_INDEX) parseAutoCreate(value);
  return value;
}

export class ClusterSettings {
  private transient: FlatSettings = {};

  constructor(private readonly kv: KvRepository) {}

  async view(): Promise<ClusterSettingsView> {
    return { persistent: await this.persistent(), transient: { ...this.transient } };
  }

  /** The value in force: transient, else persistent, else undefined (the default). */
  async valueOf(key: string): Promise<string | undefined> {
    const transient = this.transient[key];
    if (typeof transient === 'string') return transient;
    const persistent = (await this.persistent())[key];
    return typeof persistent === 'string' ? persistent : undefined;
  }

  /**
   * Applies an update (null resets a setting); all of it or, on an unknown setting or a bad
   * value, nothing. Returns the settings it set, per scope.
   */
  async update(given: Record<SettingsScope, unknown>): Promise<ClusterSettingsView> {
    const updates: Record<SettingsScope, FlatSettings> = {
      persistent: flattenSettings(given.persistent, 'persistent'),
      transient: flattenSettings(given.transient, 'transient'),
    };
    const applied: ClusterSettingsView = { persistent: {}, transient: {} };
    for (const scope of ['persistent', 'transient'] as const) {
      for (const [key, value] of Object.entries(updates[scope])) {
        if (!matchesAny(key, KNOWN_CLUSTER_SETTINGS)) throw new BadRequestError(`${scope} setting [${key}], not recognized`);
        const text = stringValue(key, value);
        updates[scope][key] = text;
        if (text !== null) applied[scope][key] = text;
      }
    }
    if (Object.keys(updates.persistent).length > 0) {
      const next = { ...(await this.persistent()) };
      applyUpdates(next, updates.persistent);
      await this.kv.put(PERSISTENT_KEY, next);
    }
    applyUpdates(this.transient, updates.transient);
    return applied;
  }

  private async persistent(): Promise<FlatSettings> {
    const stored = await this.kv.get(PERSISTENT_KEY);
    return typeof stored === 'object' && stored !== null ? (stored as FlatSettings) : {};
  }

  /** Throws the per-item 404 when `action.auto_create_index` forbids creating `index` on demand. */
  async checkAutoCreate(index: string): Promise<void> {
    const value = await this.valueOf(AUTO_CREATE_INDEX);
    if (value !== undefined) checkAutoCreate(parseAutoCreate(value), index);
  }
}

function applyUpdates(target: FlatSettings, updates: FlatSettings): void {
  for (const [key, value] of Object.entries(updates)) {
    if (value === null) delete target[key];
    else target[key] = value;
  }
}

/** One set of cluster settings per catalog: what the routes change is what writes obey. */
const perMetastore = new WeakMap<Metastore, ClusterSettings>();

export function clusterSettingsOf(metastore: Metastore): ClusterSettings {
  let settings = perMetastore.get(metastore);
  if (!settings) perMetastore.set(metastore, (settings = new ClusterSettings(metastore.kv)));
  return settings;
}
