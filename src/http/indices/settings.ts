/**
 * Index settings in Elasticsearch form. Requests give them nested or flat, with or without the
 * `index.` prefix, with any scalar values; they are kept flat (`index.refresh_interval`) with
 * string values, and shown nested (or flat with `flat_settings=true`). The settings this service
 * fixes (one shard, no replica, uuid, creation date, name, version) are always reported as they
 * are, whatever a request asked for.
 */
import { BadRequestError } from '../../common/index.js';
import { wildcardToRegExp } from '../../engine/index.js';
import { parseTimeParam } from './units.js';

/** A setting's value: a string, a list of strings, or null (reset, in updates). */
export type SettingValue = string | string[] | null;
export type FlatSettings = Record<string, SettingValue>;

/** `version.created` of Elasticsearch 7.10.2 */
export const ES_VERSION_ID = '7100299';

/** Settings a request cannot change: the engine decides them. */
export const FIXED_SETTINGS: ReadonlySet<string> = new Set([
  'index.number_of_shards',
  'index.uuid',
  'index.creation_date',
  'index.provided_name',
  'index.version.created',
]);

/**
 * Elasticsearch 7.10's static index settings: given at creation, refused by `PUT _settings` on
 * an open index (this service never closes one). A trailing `.*` stands for a group.
 */
const STATIC_SETTINGS = [
  'index.number_of_routing_shards',
  'index.codec',
  'index.routing_partition_size',
  'index.soft_deletes.*',
  'index.load_fixed_bitset_filters_eagerly',
  'index.shard.check_on_startup',
  'index.sort.*',
  'index.store.*',
  'index.analysis.*',
  'index.similarity.*',
  'index.format',
];

/**
 * Elasticsearch 7.10's dynamic index settings. They are stored and reported; a single copy of
 * each index, on one node, has nothing to do for most of them (replicas, allocation, slow logs,
 * translog tuning), see docs/api.md.
 */
const DYNAMIC_SETTINGS = [
  'index.number_of_replicas',
  'index.auto_expand_replicas',
  'index.refresh_interval',
  'index.search.idle.after',
  'index.max_result_window',
  'index.max_inner_result_window',
  'index.max_rescore_window',
  'index.max_docvalue_fields_search',
  'index.max_script_fields',
  'index.max_ngram_diff',
  'index.max_shingle_diff',
  'index.max_refresh_listeners',
  'index.max_terms_count',
  'index.max_regex_length',
  'index.max_adjacency_matrix_filters',
  'index.max_slices_per_scroll',
  'index.analyze.max_token_count',
  'index.highlight.max_analyzed_offset',
  'index.routing.allocation.*',
  'index.routing.rebalance.enable',
  'index.unassigned.node_left.delayed_timeout',
  'index.gc_deletes',
  'index.default_pipeline',
  'index.final_pipeline',
  'index.hidden',
  'index.blocks.read_only',
  'index.blocks.read_only_allow_delete',
  'index.blocks.read',
  'index.blocks.write',
  'index.blocks.metadata',
  'index.lifecycle.*',
  'index.translog.*',
  'index.merge.*',
  'index.indexing.slowlog.*',
  'index.search.slowlog.*',
  'index.write.wait_for_active_shards',
  'index.priority',
  'index.query.default_field',
  'index.requests.cache.enable',
  'index.mapping.*',
];

/** Whether `key` is one of `names`, where a name ending in `.*` stands for a group. */
export function matchesAny(key: string, names: readonly string[]): boolean {
  return names.some((name) => (name.endsWith('.*') ? key.startsWith(name.slice(0, -1)) : key === name));
}

/** Whether `PUT _settings` must refuse the setting on an open index. */
export function isStaticSetting(key: string): boolean {
  return FIXED_SETTINGS.has(key) || matchesAny(key, STATIC_SETTINGS);
}

/** Integer settings checked on the way in, with their least value. */
const INTEGER_SETTINGS: Readonly<Record<string, number>> = {
  'index.number_of_shards': 1,
  'index.number_of_replicas': 0,
  'index.max_result_window': 1,
};

/**
 * Refuses, as Elasticsearch does, a setting that is not an index setting of Elasticsearch 7.10
 * or a value its setting cannot take. A block (`index.blocks.*`) can only be lifted: this
 * service never blocks an index, so asking for one is refused rather than ignored.
 */
export function checkKnownSettings(flat: FlatSettings): void {
  for (const [key, value] of Object.entries(flat)) {
    if (!isStaticSetting(key) && !matchesAny(key, DYNAMIC_SETTINGS)) {
      throw new BadRequestError(
        `unknown setting [${key}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`,
      );
    }
    if (typeof value === 'string') checkSettingValue(key, value);
  }
}

function checkSettingValue(key: string, value: string): void {
  const least = INTEGER_SETTINGS[key];
  if (least !== undefined) {
    if (!/^-?\d+$/.test(value.trim())) throw new BadRequestError(`Failed to parse value [${value}] for setting [${key}]`);
    if (Number(value) < least) throw new BadRequestError(`Failed to parse value [${value}] for setting [${key}] must be >= ${least}`);
  } else if (key === 'index.refresh_interval') {
    parseTimeParam(value, key);
  } else if (key.startsWith('index.blocks.')) {
    if (value !== 'true' && value !== 'false') throw new BadRequestError(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
    if (value === 'true') throw new BadRequestError(`[${key}] cannot be set to [true]: this service does not block indexes`);
  }
}

/** Flattens a settings object into `index.`-prefixed keys with string values. */
export function normalizeSettings(value: unknown, section = 'settings'): FlatSettings {
  const out = flattenSettings(value, section);
  const prefixed: FlatSettings = {};
  for (const [key, v] of Object.entries(out)) prefixed[key.startsWith('index.') ? key : `index.${key}`] = v;
  return prefixed;
}

/** Flattens a settings object (nested or dotted keys) into dotted keys with string values. */
export function flattenSettings(value: unknown, section: string): FlatSettings {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new BadRequestError(`Malformed [${section}] section, should include an inner object`);
  const out: FlatSettings = {};
  flatten(value, '', out);
  return out;
}

function flatten(value: Record<string, unknown>, prefix: string, out: FlatSettings): void {
  for (const [key, v] of Object.entries(value)) {
    const name = prefix + key;
    if (isPlainObject(v)) flatten(v, `${name}.`, out);
    else out[name] = settingValue(name, v);
  }
}

function settingValue(name: string, v: unknown): SettingValue {
  if (v === null) return null;
  if (Array.isArray(v)) return v.map((item) => scalarText(name, item));
  return scalarText(name, v);
}

function scalarText(name: string, v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new BadRequestError(`failed to parse setting [${name}]: expected a value, found ${JSON.stringify(v)}`, 'settings_exception');
}

/** Turns flat dotted keys into nested objects; a key that is both a value and a prefix stays flat below it. */
export function nestSettings(flat: FlatSettings): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const key of Object.keys(flat).sort()) {
    const parts = key.split('.');
    let level = root;
    let i = 0;
    for (; i < parts.length - 1; i++) {
      const next = level[parts[i]!];
      if (next === undefined) level = level[parts[i]!] = {};
      else if (isPlainObject(next)) level = next;
      else break;
    }
    level[parts.slice(i).join('.')] = flat[key];
  }
  return root;
}

/** Settings for display: nested unless `flat`. */
export function renderSettings(flat: FlatSettings, flatSettings: boolean): Record<string, unknown> {
  return flatSettings ? { ...flat } : nestSettings(flat);
}

/** The settings of an index as Elasticsearch reports them: what was given, plus the fixed ones. */
export function indexSettings(index: { name: string; uuid: string; createdAtMs: number; settings: Record<string, unknown> }): FlatSettings {
  const given = normalizeStored(index.settings);
  for (const key of FIXED_SETTINGS) delete given[key];
  return {
    ...given,
    'index.creation_date': String(index.createdAtMs),
    'index.number_of_shards': '1',
    // reported as asked, as Elasticsearch does; there is never a second copy
    'index.number_of_replicas': given['index.number_of_replicas'] ?? '0',
    'index.uuid': index.uuid,
    'index.version.created': ES_VERSION_ID,
    'index.provided_name': index.name,
  };
}

/** Stored settings are already flat, but tolerate anything normalizeSettings accepts. */
function normalizeStored(settings: Record<string, unknown>): FlatSettings {
  try {
    return normalizeSettings(settings);
  } catch {
    return {};
  }
}

/** Keeps the settings whose names match one of the comma-separated patterns (`index.number_*`). */
export function filterSettings(flat: FlatSettings, names: string | undefined): FlatSettings {
  if (names === undefined || names === '' || names === '_all') return flat;
  const patterns = names.split(',').map((n) => wildcardToRegExp(n.trim()));
  const out: FlatSettings = {};
  for (const [key, value] of Object.entries(flat)) if (patterns.some((p) => p.test(key))) out[key] = value;
  return out;
}

/** Drops nulls (resets) from settings given at creation. */
export function withoutNulls(flat: FlatSettings): FlatSettings {
  const out: FlatSettings = {};
  for (const [key, value] of Object.entries(flat)) if (value !== null) out[key] = value;
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}
