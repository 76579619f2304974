/**
 * The validated configuration of one process, built once from the environment and command-line
 * overrides. Units are in the names.
 */
import path from 'node:path';
import { z } from 'zod';
import { isSecureOrLoopbackUrl } from '../common/index.js';
import { issuerForAudience } from './identity-providers.js';
import { clusterConfig, type ClusterConfig } from './cluster.js';
import { ConfigError } from './config-error.js';
import { envSchema, type EnvSettings } from './schema.js';

export { ConfigError };

/**
 * Where the keys that sign users' JWTs come from. An explicit setting wins; otherwise the keys
 * the provider publishes are found by OpenID Connect discovery from a pinned issuer (set with
 * SVC_JWT_ISSUER, or known from the audience); otherwise nothing is known and every token is
 * refused, with `hint` naming the setting to add.
 */
export type JwtKeySource =
  | { kind: 'jwks_url'; url: string }
  | { kind: 'jwks_file'; path: string }
  | { kind: 'public_key_file'; path: string }
  | { kind: 'hs256_secret'; secret: string }
  | { kind: 'oidc_discovery'; issuer: string; pinnedBy: 'SVC_JWT_ISSUER' | 'SVC_JWT_AUDIENCE' }
  | { kind: 'none'; hint: string };

export interface JwtConfig {
  audience: string;
  /** the `iss` values a token may carry; empty: not checked */
  issuers: string[];
  keySource: JwtKeySource;
  rolesClaim: string;
}

export interface RbacConfig {
  enabled: boolean;
  bootstrapKey?: string;
  jwt?: JwtConfig;
}

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  logLevel: EnvSettings['SVC_LOG_LEVEL'];
  nodeName: string;
  clusterName: string;
  maxBulkBytes: number;
  /** SVC_IN_FLIGHT_REQUESTS_BYTES: request bodies and answers held at once */
  inFlightRequestsBytes: number;
  /** SVC_MEMORY_LIMIT_BYTES: resident memory above which requests with a body get 429 (0: no limit) */
  memoryLimitBytes: number;
  memtableMaxBytes: number;
  memtableMaxAgeMs: number;
  walMaxUnflushedBytes: number;
  idleIndexMs: number;
  indexingThreads: number;
  queryThreads: number;
  queryQueueSize: number;
  queryTimeoutMs: number;
  maxOpenScrolls: number;
  aggregationMemoryBytes: number;
  /** SVC_READER_CACHE_BYTES: the node's budget for what segment readers keep decoded */
  readerCacheBytes: number;
  maxBuckets: number;
  shutdownTimeoutMs: number;
  metastoreUrl: string;
  objectStore: string;
  storageMaxPendingBytes: number;
  rbac: RbacConfig;
  cluster: ClusterConfig;
}

/** Values given on the command line; they win over the environment. */
export interface ConfigOverrides {
  host?: string;
  port?: number;
  dataDir?: string;
  /** comma-separated roles (`--roles`) */
  roles?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const svcEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('SVC_') && value !== undefined) svcEnv[key] = value;
  }
  const parsed = envSchema.safeParse(svcEnv);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error));
  const s = parsed.data;

  const config: Config = {
    host: overrides.host ?? s.SVC_HOST,
    port: overrides.port ?? s.SVC_PORT,
    dataDir: path.resolve(overrides.dataDir ?? s.SVC_DATA_DIR),
    logLevel: s.SVC_LOG_LEVEL,
    nodeName: s.SVC_NODE_NAME,
    clusterName: s.SVC_CLUSTER_NAME,
    maxBulkBytes: s.SVC_MAX_BULK_BYTES,
    inFlightRequestsBytes: s.SVC_IN_FLIGHT_REQUESTS_BYTES,
    memoryLimitBytes: s.SVC_MEMORY_LIMIT_BYTES,
    memtableMaxBytes: s.SVC_MEMTABLE_MAX_BYTES,
    memtableMaxAgeMs: s.SVC_MEMTABLE_MAX_AGE_SECONDS * 1000,
    walMaxUnflushedBytes: s.SVC_WAL_MAX_UNFLUSHED_BYTES,
    idleIndexMs: s.SVC_IDLE_INDEX_SECONDS * 1000,
    indexingThreads: s.SVC_INDEXING_THREADS,
    queryThreads: s.SVC_QUERY_THREADS,
    queryQueueSize: s.SVC_QUERY_QUEUE_SIZE,
    queryTimeoutMs: Math.round(s.SVC_QUERY_TIMEOUT_SECONDS * 1000),
    maxOpenScrolls: s.SVC_MAX_OPEN_SCROLLS,
    aggregationMemoryBytes: s.SVC_AGGREGATION_MEMORY_BYTES,
    readerCacheBytes: s.SVC_READER_CACHE_BYTES,
    maxBuckets: s.SVC_MAX_BUCKETS,
    shutdownTimeoutMs: Math.round(s.SVC_SHUTDOWN_TIMEOUT_SECONDS * 1000),
    metastoreUrl: s.SVC_METASTORE_URL,
    objectStore: s.SVC_OBJECT_STORE,
    storageMaxPendingBytes: s.SVC_STORAGE_MAX_PENDING_BYTES,
    rbac: rbacConfig(s),
    cluster: clusterConfig(s, overrides.roles, s.SVC_METASTORE_URL),
  };
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) {
    throw new ConfigError(`port must be an integer from 0 to 65535, got ${String(overrides.port)}`);
  }
  return config;
}

function rbacConfig(s: EnvSettings): RbacConfig {
  if (!s.SVC_RBAC) return { enabled: false };
  const explicit = explicitKeySources(s);
  if (s.SVC_JWT_HS256_SECRET && !s.SVC_JWT_ALLOW_HS256) {
    throw new ConfigError('SVC_JWT_HS256_SECRET is set but HS256 is not allowed: set SVC_JWT_ALLOW_HS256=1 to accept shared-secret tokens');
  }
  if (explicit.length > 1) {
    throw new ConfigError('set only one of SVC_JWT_JWKS_URL, SVC_JWT_JWKS_FILE, SVC_JWT_PUBLIC_KEY_FILE, SVC_JWT_HS256_SECRET');
  }
  const audience = s.SVC_JWT_AUDIENCE || undefined;
  if (explicit.length === 1 && audience === undefined) {
    throw new ConfigError('SVC_JWT_AUDIENCE is required when a JWT signing key source is configured');
  }
  const bootstrapKey = s.SVC_BOOTSTRAP_KEY || undefined;
  if (audience === undefined) return { enabled: true, bootstrapKey };
  const jwt = explicit.length === 1 ? explicitJwt(s, audience, explicit[0]!) : discoveredJwt(s, audience);
  return { enabled: true, bootstrapKey, jwt };
}

function explicitKeySources(s: EnvSettings): JwtKeySource[] {
  const sources: JwtKeySource[] = [];
  if (s.SVC_JWT_JWKS_URL) sources.push({ kind: 'jwks_url', url: s.SVC_JWT_JWKS_URL });
  if (s.SVC_JWT_JWKS_FILE) sources.push({ kind: 'jwks_file', path: s.SVC_JWT_JWKS_FILE });
  if (s.SVC_JWT_PUBLIC_KEY_FILE) sources.push({ kind: 'public_key_file', path: s.SVC_JWT_PUBLIC_KEY_FILE });
  if (s.SVC_JWT_HS256_SECRET) sources.push({ kind: 'hs256_secret', secret: s.SVC_JWT_HS256_SECRET });
  return sources;
}

function explicitJwt(s: EnvSettings, audience: string, keySource: JwtKeySource): JwtConfig {
  return { audience, issuers: s.SVC_JWT_ISSUER ? [s.SVC_JWT_ISSUER] : [], keySource, rolesClaim: s.SVC_JWT_ROLES_CLAIM };
}

/** No key source is set: the issuer, pinned by setting or by the audience, leads to the keys. */
function discoveredJwt(s: EnvSettings, audience: string): JwtConfig {
  const rolesClaim = s.SVC_JWT_ROLES_CLAIM;
  if (s.SVC_JWT_ISSUER) {
    const problem = discoverableIssuerProblem(s.SVC_JWT_ISSUER);
    if (problem !== undefined) {
      throw new ConfigError(`SVC_JWT_ISSUER ${problem}, so the provider's signing keys cannot be discovered from it: set SVC_JWT_JWKS_URL as well`);
    }
    return { audience, issuers: [s.SVC_JWT_ISSUER], keySource: { kind: 'oidc_discovery', issuer: s.SVC_JWT_ISSUER, pinnedBy: 'SVC_JWT_ISSUER' }, rolesClaim };
  }
  const known = issuerForAudience(audience);
  if (known !== undefined) {
    return { audience, issuers: known.issuers, keySource: { kind: 'oidc_discovery', issuer: known.issuer, pinnedBy: 'SVC_JWT_AUDIENCE' }, rolesClaim };
  }
  const hint =
    `no signing key source is known for the audience [${audience}]: set SVC_JWT_ISSUER to the identity provider's issuer URL ` +
    '(its published keys are then discovered), or set SVC_JWT_JWKS_URL';
  return { audience, issuers: [], keySource: { kind: 'none', hint }, rolesClaim };
}

/** OpenID Connect issuers are https URLs (plain http only on a loopback host). */
function discoverableIssuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return `[${issuer}] is not a URL`;
  }
  return isSecureOrLoopbackUrl(url) ? undefined : `[${issuer}] is not an https URL`;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}
