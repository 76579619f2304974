/**
 * The one table that says what every HTTP endpoint requires, keyed by method and fastify route
 * pattern. Rows marked `seed` come from the specification's permission-to-endpoint mapping;
 * rows marked `added` are our choice where it is silent (listed in docs/rbac.md). A route that
 * is not in this table is denied.
 */
import type { Requirement } from './authorize.js';
import type { OrgPermission } from './org/index.js';
import type { DatabaseAction, IndexAction } from './permissions.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointPermission {
  method: HttpMethod;
  /** fastify route pattern, e.g. `/:index/_search` */
  url: string;
  requirement: Requirement;
  /** `seed`: from the specification; `added`: chosen where the specification is silent */
  origin: 'seed' | 'added';
}

const PUBLIC: Requirement = { kind: 'public' };
const AUTHENTICATED: Requirement = { kind: 'authenticated' };
const index = (action: IndexAction): Requirement => ({ kind: 'index', action });
const database = (action: DatabaseAction): Requirement => ({ kind: 'database', action });
const org = (permission: OrgPermission): Requirement => ({ kind: 'org', permission });
/** manage_security endpoints the bootstrap key may also call, to create the first administrator */
const BOOTSTRAP_SECURITY: Requirement = { kind: 'database', action: 'manage_security', bootstrap: true };

const rows: EndpointPermission[] = [];

function seed(methods: HttpMethod[], urls: string[], requirement: Requirement): void {
  for (const method of methods) for (const url of urls) rows.push({ method, url, requirement, origin: 'seed' });
}

function added(methods: HttpMethod[], urls: string[], requirement: Requirement): void {
  for (const method of methods) for (const url of urls) rows.push({ method, url, requirement, origin: 'added' });
}

// index / read
seed(
  ['GET'],
  [
    '/_alias',
    '/_alias/:aliases',
    '/_all/_alias',
    '/_all/_aliases',
    '/_cat/indices/:index',
    '/_msearch',
    '/_search/scroll',
    '/:index/_alias',
    '/:index/_aliases',
    '/:index/_count',
    '/:index/_flush',
    '/:index/_mapping',
    '/:index/_msearch',
    '/:index/_search',
    '/:index/_search/scroll',
    '/:index/_settings',
    '/:index/_stats',
    '/:index/_stats/:stats',
    '/:index/:type/_count',
    '/:index/:type/_search',
  ],
  index('read'),
);
seed(['HEAD'], ['/_alias/:aliases', '/_template/:index', '/:index'], index('read'));
seed(
  ['POST'],
  [
    '/_msearch',
    '/_search/scroll',
    '/:index/_count',
    '/:index/_msearch',
    '/:index/_search',
    '/:index/_search/scroll',
    '/:index/:type/_count',
    '/:index/:type/_search',
  ],
  index('read'),
);
added(['GET', 'POST'], ['/_search', '/_count', '/_field_caps', '/:index/_field_caps'], index('read'));
added(['GET', 'POST', 'DELETE'], ['/_search/scroll/:scrollId'], index('read'));
added(['DELETE'], ['/_search/scroll'], index('read'));
// async search: a search like `_search`; the id is usable only by the actor that submitted it
added(['POST'], ['/_async_search', '/:index/_async_search'], index('read'));
added(['GET', 'DELETE'], ['/_async_search/:id'], index('read'));
added(['GET'], ['/_async_search/status/:id'], index('read'));
added(['GET'], ['/:index', '/_mapping', '/_stats', '/_template', '/_template/:index', '/_flush', '/_refresh', '/:index/_refresh', '/_cat/count', '/_cat/count/:index', '/_cat/aliases'], index('read'));
added(
  ['GET'],
  ['/_settings', '/_settings/:name', '/:index/_settings/:name', '/_stats/:stats', '/:index/_alias/:aliases', '/_cat/aliases/:name', '/_cat/templates', '/_cat/templates/:name'],
  index('read'),
);

// documents by `_id` and `_mget`: reads like `_search`; the typed search forms with type `_doc`
// are routes of their own (the document routes would take `_search` for an `_id`)
added(['GET'], ['/:index/_doc/:id', '/:index/_source/:id'], index('read'));
added(['GET', 'POST'], ['/_mget', '/:index/_mget', '/:index/_doc/_search', '/:index/_doc/_count'], index('read'));

// open to every authenticated request since 1.23.0 (GET /_cat/indices lists readable indexes only)
seed(['GET'], ['/_cat/indices', '/_license', '/_xpack'], AUTHENTICATED);
added(['GET'], ['/'], AUTHENTICATED);
// a credential asking who it is and what it may do: about itself only, so open to any
added(['GET'], ['/_security/_authenticate'], AUTHENTICATED);
added(['GET', 'POST'], ['/_security/user/_has_privileges'], AUTHENTICATED);

// index / write
seed(['POST'], ['/_aliases', '/_bulk', '/:index/_bulk', '/:index/_flush'], index('write'));
seed(['PUT'], ['/_template/:index', '/:index', '/:index/_mapping'], index('write'));
added(['PUT'], ['/_bulk', '/:index/_bulk', '/:index/_settings'], index('write'));
added(['POST'], ['/_flush', '/_refresh', '/:index/_refresh'], index('write'));
added(['DELETE'], ['/_template/:index'], index('write'));
// one document written by `_id`, as a bulk item would be
added(['PUT', 'POST'], ['/:index/_doc/:id', '/:index/_create/:id'], index('write'));
added(['POST'], ['/:index/_doc', '/:index/_update/:id'], index('write'));
added(['POST'], ['/_forcemerge', '/:index/_forcemerge'], index('write'));
added(['PUT', 'POST', 'DELETE'], ['/:index/_alias/:aliases', '/:index/_aliases/:aliases'], index('write'));

// index / delete
seed(['DELETE'], ['/:index'], index('delete'));
added(['DELETE'], ['/:index/_doc/:id'], index('delete'));

// database / manage_security
seed(['GET', 'POST'], ['/v1/api_keys'], BOOTSTRAP_SECURITY);
seed(['DELETE'], ['/v1/api_keys/:id'], database('manage_security'));
seed(['GET'], ['/v1/role_mappings'], BOOTSTRAP_SECURITY);
seed(['POST', 'PUT'], ['/v1/role_mappings'], database('manage_security'));
added(['GET'], ['/v1/role_mappings/:id'], BOOTSTRAP_SECURITY);
added(['PUT', 'DELETE'], ['/v1/role_mappings/:id'], database('manage_security'));
seed(['GET', 'POST'], ['/v1/roles'], BOOTSTRAP_SECURITY);
seed(['GET'], ['/v1/roles/:roleId'], BOOTSTRAP_SECURITY);
seed(['PUT', 'DELETE'], ['/v1/roles/:roleId'], database('manage_security'));

// database / monitor
seed(
  ['GET'],
  ['/_cat/nodes', '/_cluster/health', '/_cluster/health/:index', '/_cluster/settings', '/_cluster/state/metadata', '/_cluster/state/metadata/:index'],
  database('monitor'),
);
added(['GET'], ['/_mappings', '/:index/_mappings', '/_resolve/index/:name'], index('read'));
added(['PUT'], ['/:index/_mappings'], index('write'));
added(['GET'], ['/metrics', '/_cat/health', '/_cluster/state', '/_cluster/state/:metric', '/_cluster/state/:metric/:index'], database('monitor'));
// changing cluster settings (which writes may create indexes) is an administrator's act
added(['PUT'], ['/_cluster/settings'], database('manage_security'));

// the organisation API (the hosted offering's roles): organisation permissions, held by users
// through their one organisation role; opening the account is for the service's administrators
added(['POST'], ['/v1/org'], database('manage_security'));
added(['GET'], ['/v1/org', '/v1/org/users', '/v1/org/roles'], org('read:org'));
added(['DELETE'], ['/v1/org'], { kind: 'org_owner' });
added(['POST'], ['/v1/org/users', '/v1/org/roles'], org('write:org'));
added(['PUT', 'DELETE'], ['/v1/org/users/:userId', '/v1/org/roles/:name'], org('write:org'));
added(['GET'], ['/v1/org/api_keys'], org('write:api_key'));
added(['POST'], ['/v1/org/api_keys/:id/rotate'], org('write:api_key'));
added(['GET'], ['/v1/org/billing/card', '/v1/org/billing/invoices'], org('read:billing'));
added(['PUT'], ['/v1/org/billing/card'], org('write:billing'));
added(['POST'], ['/v1/org/billing/invoices'], org('write:billing'));

// probes for orchestrators: no credential, so that a locked-out operator still sees the process is up
added(['GET'], ['/health/livez', '/health/readyz'], PUBLIC);
// calls between the cluster's processes: the cluster secret, whatever RBAC says
added(['GET'], ['/_internal/node', '/_internal/cluster'], { kind: 'cluster_secret' });
// the data path between roles: a search part, a placement asked of the coordinator, and the
// Elasticsearch API of a cache node, which checks the caller's credential itself as one process does
added(['POST'], ['/_internal/search', '/_internal/placements/:index', '/_internal/es/indexes', '/_internal/mappings'], { kind: 'cluster_secret' });
added(['GET', 'POST', 'PUT', 'DELETE'], ['/_internal/es'], { kind: 'cluster_secret' });
added(['DELETE'], ['/_internal/scroll/:id'], { kind: 'cluster_secret' });
// the storage role's merges and garbage collection, and a cache node taking a merge in
added(['POST'], ['/_internal/storage/merge', '/_internal/storage/gc', '/_internal/segments/:index/sync'], { kind: 'cluster_secret' });
added(['GET'], ['/_internal/storage/merges'], { kind: 'cluster_secret' });
// the web console's static files hold no data: its API calls carry the key and are checked as usual
added(['GET'], ['/_console', '/_console/:file'], PUBLIC);

export const ENDPOINT_PERMISSIONS: readonly EndpointPermission[] = Object.freeze(rows);

const byKey = new Map<string, EndpointPermission>();
for (const row of ENDPOINT_PERMISSIONS) {
  const key = `${row.method} ${row.url}`;
  if (byKey.has(key)) throw new Error(`duplicate endpoint permission row ${key}`);
  byKey.set(key, row);
}

/**
 * The row for a method and route pattern. HEAD falls back to the GET row, since fastify answers
 * HEAD for every GET route and a HEAD reveals no more than its GET.
 */
export function findEndpointPermission(method: string, url: string): EndpointPermission | undefined {
  const upper = method.toUpperCase();
  const row = byKey.get(`${upper} ${url}`);
  if (row !== undefined || upper !== 'HEAD') return row;
  return byKey.get(`GET ${url}`);
}
