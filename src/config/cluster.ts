/**
 * The cluster part of the configuration: which roles this process runs, how it names and
 * advertises itself, the secret of the internal routes, and the heartbeat and lease timings.
 */
import { createHash } from 'node:crypto';
import { ConfigError } from './config-error.js';
import type { EnvSettings } from './schema.js';

export const NODE_ROLES = ['api', 'cache', 'storage', 'coordinator'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/** A cluster secret shorter than this is refused: it would be guessable. */
export const MIN_CLUSTER_SECRET_LENGTH = 16;

export interface ClusterConfig {
  /** in the order of NODE_ROLES */
  roles: NodeRole[];
  /** true when the process runs every role: the embedded one-process deployment */
  allRoles: boolean;
  nodeId: string;
  /** the URL other processes reach this one at; undefined: derived from the listening address */
  advertiseUrl?: string;
  /** undefined when not configured */
  secret?: string;
  heartbeatIntervalMs: number;
  leaseMs: number;
  /** SVC_SHARED_WAL_DIR: where every cache node's write-ahead log is, readable by all of them */
  sharedWalDir?: string;
  /** SVC_GC_GRACE_SECONDS: how long an unreferenced segment file stays in the object store */
  gcGraceMs: number;
  /** SVC_GC_INTERVAL_SECONDS: how often the coordinator has the storage role collect garbage */
  gcIntervalMs: number;
}

/** Parses a comma-separated role list (`--roles` or SVC_ROLES). */
export function parseRoles(text: string): NodeRole[] {
  const names = text
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  if (names.length === 0) throw new ConfigError(`roles must name at least one of ${NODE_ROLES.join(', ')}`);
  for (const name of names) {
    if (!(NODE_ROLES as readonly string[]).includes(name)) {
      throw new ConfigError(`unknown role [${name}]: roles are ${NODE_ROLES.join(', ')}`);
    }
  }
  return NODE_ROLES.filter((role) => names.includes(role));
}

/** Stable across restarts: derived from the cluster and node names (22 url-safe characters, as Elasticsearch's). */
export function derivedNodeId(clusterName: string, nodeName: string): string {
  return createHash('sha256').update(`${clusterName}/${nodeName}`).digest('base64url').slice(0, 22);
}

export function clusterConfig(s: EnvSettings, rolesOverride: string | undefined, metastoreUrl: string): ClusterConfig {
  const roles = parseRoles(rolesOverride ?? s.SVC_ROLES);
  const allRoles = roles.length === NODE_ROLES.length;
  if (!allRoles && metastoreUrl === '') {
    throw new ConfigError(
      `roles [${roles.join(',')}] run only part of the service, so its other processes must share the metastore: set SVC_METASTORE_URL to a PostgreSQL URL (the embedded SQLite file serves one process only)`,
    );
  }
  const secret = s.SVC_CLUSTER_SECRET === undefined || s.SVC_CLUSTER_SECRET === '' ? undefined : s.SVC_CLUSTER_SECRET;
  if (secret !== undefined && secret.length < MIN_CLUSTER_SECRET_LENGTH) {
    throw new ConfigError(`SVC_CLUSTER_SECRET must be at least ${MIN_CLUSTER_SECRET_LENGTH} characters`);
  }
  const heartbeatIntervalMs = Math.round(s.SVC_HEARTBEAT_INTERVAL_SECONDS * 1000);
  const leaseMs = Math.round(s.SVC_LEASE_SECONDS * 1000);
  // a lease must survive a missed heartbeat, or a slow tick would drop a live node
  if (leaseMs < 2 * heartbeatIntervalMs) {
    throw new ConfigError('SVC_LEASE_SECONDS must be at least twice SVC_HEARTBEAT_INTERVAL_SECONDS');
  }
  let advertiseUrl: string | undefined;
  if (s.SVC_ADVERTISE_URL !== undefined) {
    const url = new URL(s.SVC_ADVERTISE_URL);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('SVC_ADVERTISE_URL must be an http or https URL');
    advertiseUrl = url.origin;
  }
  return {
    roles,
    allRoles,
    nodeId: s.SVC_NODE_ID ?? derivedNodeId(s.SVC_CLUSTER_NAME, s.SVC_NODE_NAME),
    advertiseUrl,
    secret,
    heartbeatIntervalMs,
    leaseMs,
    gcGraceMs: Math.round(s.SVC_GC_GRACE_SECONDS * 1000),
    gcIntervalMs: Math.round(s.SVC_GC_INTERVAL_SECONDS * 1000),
    ...(s.SVC_SHARED_WAL_DIR === undefined ? {} : { sharedWalDir: s.SVC_SHARED_WAL_DIR }),
  };
}
