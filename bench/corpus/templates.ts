/**
 * The fixed text of the log formats: services, hosts, threads, user agents, exception classes.
 * Their tokens are kept out of the Zipf vocabulary so that a vocabulary word's frequency comes
 * from its rank alone.
 */

export const SERVICES = [
  'checkout', 'payments', 'inventory', 'search-api', 'auth', 'gateway', 'notifications', 'billing',
  'catalog', 'shipping', 'recommendations', 'profile',
] as const;

export const HOSTS_PER_SERVICE = 6;

export const LEVELS = ['INFO', 'DEBUG', 'WARN', 'ERROR'] as const;
export const LEVEL_WEIGHTS = [70, 12, 12, 6];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] as const;
export const HTTP_METHOD_WEIGHTS = [70, 18, 5, 3, 2, 2];

export const HTTP_STATUSES = [200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 409, 429, 500, 502, 503] as const;
export const HTTP_STATUS_WEIGHTS = [72, 5, 3, 1, 2, 4, 2, 1.5, 1, 5, 0.5, 0.7, 1, 0.3, 0.5];

export const USER_AGENTS = [
  'curl/8.4.0',
  'Go-http-client/1.1',
  'okhttp/4.12.0',
  'python-requests/2.31.0',
  'kube-probe/1.28',
  'Apache-HttpClient/4.5.14 (Java/17.0.9)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
] as const;
export const USER_AGENT_WEIGHTS = [20, 18, 14, 12, 10, 8, 6, 4];

export const THREADS = ['worker', 'scheduler', 'http-nio-8080-exec', 'kafka-consumer', 'pool', 'main'] as const;

export const EXCEPTIONS = [
  'java.lang.NullPointerException',
  'java.lang.IllegalStateException',
  'java.lang.IllegalArgumentException',
  'java.io.IOException',
  'java.util.concurrent.TimeoutException',
  'java.sql.SQLTransientConnectionException',
  'org.springframework.dao.DataAccessResourceFailureException',
] as const;

export const EXCEPTION_CLASSES = ['Handler', 'Service', 'Repository', 'Controller', 'Client', 'Worker'] as const;
export const EXCEPTION_METHODS = ['process', 'handle', 'load', 'save', 'execute', 'apply', 'call'] as const;

export const APP_VERBS = ['completed', 'started', 'failed', 'skipped', 'queued', 'accepted', 'rejected'] as const;

export const KV_KEYS = ['tenant', 'region', 'route', 'op', 'queue', 'feature', 'table'] as const;

/**
 * Every word the format templates write on their own, lowercase, for keeping the vocabulary
 * apart from them. Month names come from the access-log date.
 */
export function templateWords(): Set<string> {
  const text = [
    ...SERVICES, ...LEVELS, ...HTTP_METHODS, ...USER_AGENTS, ...THREADS, ...EXCEPTIONS,
    ...EXCEPTION_CLASSES, ...EXCEPTION_METHODS, ...APP_VERBS, ...KV_KEYS,
    'jan feb mar apr may jun jul aug sep oct nov dec http api v1 v2 static js css png search q page',
    'https www example com referer order shipped to customer in ms user session retrying attempt after',
    'cache hit ratio processed records from queue for request took bytes level msg key latency_ms trace_id',
    'info debug warn error caused by at acme java line status host node lang io util concurrent sql',
    'panic runtime index out of range with length goroutine traceback most recent call last file',
    'py valueerror keyerror in attempt duration rows id items via app running tenant',
  ].join(' ');
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0));
}
