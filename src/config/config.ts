/**
 * The validated configuration of one process, built once from the environment and command-line
 * overrides. Units are in the names.
 */
import path from 'node:path';
import { z } from 'zod';
import { envSchema, type EnvSettings } from './schema.js';

export interface JwtConfig {
  audience: string;
  issuer?: string;
  jwksUrl?: string;
  jwksFile?: string;
  publicKeyFile?: string;
  hs256Secret?: string;
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
  memtableMaxBytes: number;
  memtableMaxAgeMs: number;
  walMaxUnflushedBytes: number;
  idleIndexMs: number;
  queryThreads: number;
  queryTimeoutMs: number;
  maxOpenScrolls: number;
  aggregationMemoryBytes: number;
  maxBuckets: number;
  shutdownTimeoutMs: number;
  metastoreUrl: string;
  objectStore: string;
  storageMaxPendingBytes: number;
  rbac: RbacConfig;
}

export class ConfigError extends Error {}

/** Values given on the command line; they win over the environment. */
export interface ConfigOverrides {
  host?: string;
  port?: number;
  dataDir?: string;
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
    memtableMaxBytes: s.SVC_MEMTABLE_MAX_BYTES,
    memtableMaxAgeMs: s.SVC_MEMTABLE_MAX_AGE_SECONDS * 1000,
    walMaxUnflushedBytes: s.SVC_WAL_MAX_UNFLUSHED_BYTES,
    idleIndexMs: s.SVC_IDLE_INDEX_SECONDS * 1000,
    queryThreads: s.SVC_QUERY_THREADS,
    queryTimeoutMs: Math.round(s.SVC_QUERY_TIMEOUT_SECONDS * 1000),
    maxOpenScrolls: s.SVC_MAX_OPEN_SCROLLS,
    aggregationMemoryBytes: s.SVC_AGGREGATION_MEMORY_BYTES,
    maxBuckets: s.SVC_MAX_BUCKETS,
    shutdownTimeoutMs: Math.round(s.SVC_SHUTDOWN_TIMEOUT_SECONDS * 1000),
    metastoreUrl: s.SVC_METASTORE_URL,
    objectStore: s.SVC_OBJECT_STORE,
    storageMaxPendingBytes: s.SVC_STORAGE_MAX_PENDING_BYTES,
    rbac: rbacConfig(s),
  };
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) {
    throw new ConfigError(`port must be an integer from 0 to 65535, got ${String(overrides.port)}`);
  }
  return config;
}

function rbacConfig(s: EnvSettings): RbacConfig {
  if (!s.SVC_RBAC) return { enabled: false };
  const jwtKeySources = [s.SVC_JWT_JWKS_URL, s.SVC_JWT_JWKS_FILE, s.SVC_JWT_PUBLIC_KEY_FILE, s.SVC_JWT_HS256_SECRET].filter(
    (v) => v !== undefined && v !== '',
  );
  if (s.SVC_JWT_HS256_SECRET && !s.SVC_JWT_ALLOW_HS256) {
    throw new ConfigError('SVC_JWT_HS256_SECRET is set but HS256 is not allowed: set SVC_JWT_ALLOW_HS256=1 to accept shared-secret tokens');
  }
  if (jwtKeySources.length > 1) {
    throw new ConfigError('set only one of SVC_JWT_JWKS_URL, SVC_JWT_JWKS_FILE, SVC_JWT_PUBLIC_KEY_FILE, SVC_JWT_HS256_SECRET');
  }
  if (jwtKeySources.length === 1 && !s.SVC_JWT_AUDIENCE) {
    throw new ConfigError('SVC_JWT_AUDIENCE is required when a JWT signing key source is configured');
  }
  if (s.SVC_JWT_AUDIENCE && jwtKeySources.length === 0) {
    throw new ConfigError(
      'SVC_JWT_AUDIENCE is set but no signing key source: set one of SVC_JWT_JWKS_URL, SVC_JWT_JWKS_FILE, SVC_JWT_PUBLIC_KEY_FILE',
    );
  }
  const jwt: JwtConfig | undefined = s.SVC_JWT_AUDIENCE
    ? {
        audience: s.SVC_JWT_AUDIENCE,
        issuer: s.SVC_JWT_ISSUER,
        jwksUrl: s.SVC_JWT_JWKS_URL,
        jwksFile: s.SVC_JWT_JWKS_FILE,
        publicKeyFile: s.SVC_JWT_PUBLIC_KEY_FILE,
        hs256Secret: s.SVC_JWT_HS256_SECRET,
        rolesClaim: s.SVC_JWT_ROLES_CLAIM,
      }
    : undefined;
  return { enabled: true, bootstrapKey: s.SVC_BOOTSTRAP_KEY || undefined, jwt };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}
