/**
 * `GET /_license` and `GET /_xpack` answered as a basic-licensed Elasticsearch 7.10 cluster
 * answers them, so that Beats, Logstash and Kibana-style tools go on. The license uid and issue
 * date are made once and kept in the metastore. Features are `available` as the basic license
 * makes them, but `enabled` only where this service does the work (security when RBAC is on):
 * ILM in particular reads as disabled, so that Beats and Logstash in their default `auto` mode
 * write plain daily indexes instead of calling the ILM API.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import type { ApiDeps } from '../deps.js';
import { stringParam } from '../query-params.js';
import type { IndicesRequest } from './targets.js';

const LICENSE_KEY = 'license';
const BUILD = { hash: '747e1cc71def077253878a59143c1f785afa92b9', date: '2021-01-13T00:42:12.435326Z' };

interface StoredLicense {
  uid: string;
  issueDateMs: number;
}

function isStoredLicense(value: unknown): value is StoredLicense {
  return typeof value === 'object' && value !== null && typeof (value as StoredLicense).uid === 'string' && typeof (value as StoredLicense).issueDateMs === 'number';
}

async function storedLicense(deps: ApiDeps): Promise<StoredLicense> {
  const existing = await deps.metastore.kv.get(LICENSE_KEY);
  if (isStoredLicense(existing)) return existing;
  await deps.metastore.kv.putIfAbsent(LICENSE_KEY, { uid: randomUUID(), issueDateMs: Date.now() });
  const stored = await deps.metastore.kv.get(LICENSE_KEY);
  if (!isStoredLicense(stored)) throw new Error('stored license record is malformed');
  return stored;
}

/** Basic-license availability of the 7.10 features; none is switched on here but security with RBAC. */
const BASIC_AVAILABLE: ReadonlyArray<readonly [string, boolean]> = [
  ['analytics', true],
  ['ccr', false],
  ['data_frame', true],
  ['data_science', true],
  ['data_streams', true],
  ['data_tiers', true],
  ['enrich', true],
  ['eql', true],
  ['flattened', true],
  ['frozen_indices', true],
  ['graph', false],
  ['ilm', true],
  ['logstash', false],
  ['ml', false],
  ['monitoring', true],
  ['rollup', true],
  ['searchable_snapshots', false],
  ['security', true],
  ['slm', true],
  ['spatial', true],
  ['sql', true],
  ['transform', true],
  ['vectors', true],
  ['voting_only', true],
  ['watcher', false],
];

function features(deps: ApiDeps): Record<string, { available: boolean; enabled: boolean }> {
  const out: Record<string, { available: boolean; enabled: boolean }> = {};
  for (const [name, available] of BASIC_AVAILABLE) out[name] = { available, enabled: name === 'security' && deps.config.rbac.enabled };
  return out;
}

const CATEGORIES = new Set(['build', 'license', 'features']);

export function registerXpackRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/_license', async () => {
    const license = await storedLicense(deps);
    return {
      license: {
        status: 'active',
        uid: license.uid,
        type: 'basic',
        issue_date: new Date(license.issueDateMs).toISOString(),
        issue_date_in_millis: license.issueDateMs,
        max_nodes: 1000,
        issued_to: deps.config.clusterName,
        issuer: 'elasticsearch',
        start_date_in_millis: -1,
      },
    };
  });

  app.get('/_xpack', async (request: IndicesRequest) => {
    const asked = (stringParam(request.query, 'categories') ?? 'build,license,features').split(',').map((c) => c.trim());
    for (const c of asked) if (!CATEGORIES.has(c)) throw new BadRequestError(`unknown category [${c}]`);
    const license = await storedLicense(deps);
    const body: Record<string, unknown> = {};
    if (asked.includes('build')) body.build = { ...BUILD };
    if (asked.includes('license')) body.license = { uid: license.uid, type: 'basic', mode: 'basic', status: 'active' };
    if (asked.includes('features')) body.features = features(deps);
    body.tagline = 'You know, for X';
    return body;
  });
}
