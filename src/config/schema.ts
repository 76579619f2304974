/**
 * Every SVC_* setting: its name, type, default and validation. This is the only place the
 * process environment is read; the parsed Config is passed down to whatever needs it.
 */
import os from 'node:os';
import { z } from 'zod';

const MiB = 1024 * 1024;
/** see docs/configuration.md for how it was chosen */
const READER_CACHE_DEFAULT_BYTES = 256 * MiB;

const boolFlag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes' || v === 'on');

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();

/** The settings, keyed by their environment variable names. */
export const envSchema = z.object({
  SVC_HOST: z.string().min(1).default('127.0.0.1'),
  SVC_PORT: z.coerce.number().int().min(0).max(65535).default(9200),
  SVC_DATA_DIR: z.string().min(1).default('./data'),
  SVC_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SVC_NODE_NAME: z.string().min(1).default(os.hostname()),
  SVC_CLUSTER_NAME: z.string().min(1).default('svc'),

  /** the roles this process runs, comma separated: any of api, cache, storage, coordinator */
  SVC_ROLES: z.string().default('api,cache,storage,coordinator'),
  /** this node's id in the membership table; default derived from the cluster and node names */
  SVC_NODE_ID: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, at most 64').optional(),
  /** the URL other processes reach this one at; default http://<host>:<port> as it listens */
  SVC_ADVERTISE_URL: z.string().url().optional(),
  /** shared by every process of the cluster; required on the internal routes */
  SVC_CLUSTER_SECRET: z.string().optional(),
  /** how often a node renews its membership row and the coordinator its lease */
  SVC_HEARTBEAT_INTERVAL_SECONDS: z.coerce.number().positive().default(3),
  /** how long a membership row or the coordinator lease stays valid without renewal */
  SVC_LEASE_SECONDS: z.coerce.number().positive().default(15),
  /**
   * a directory every cache node reads and writes (a shared volume): each cache node keeps its
   * write-ahead log in `<dir>/<node id>`, and the node an index moves to after its owner died
   * recovers the owner's unflushed writes from there. Unset: indexes of a dead cache node stay
   * placed on it until it comes back
   */
  SVC_SHARED_WAL_DIR: z.string().min(1).optional(),
  /**
   * in a cluster with a storage process: how long a segment file no live segment names any more
   * (replaced by a merge, or of a deleted index, or uploaded and never committed) stays in the
   * object store before the storage role deletes it, so that a reader that still has it open is
   * not broken
   */
  SVC_GC_GRACE_SECONDS: z.coerce.number().positive().default(600),
  /** how often the coordinator has the storage role collect garbage in the object store */
  SVC_GC_INTERVAL_SECONDS: z.coerce.number().positive().default(60),

  SVC_MAX_BULK_BYTES: positiveInt.default(100 * MiB),
  /**
   * request bodies being received or held until answered, and answers not yet written out, all
   * requests together (Elasticsearch's in_flight_requests breaker); past it 429
   */
  SVC_IN_FLIGHT_REQUESTS_BYTES: positiveInt.default(256 * MiB),
  SVC_MEMORY_LIMIT_BYTES: nonNegativeInt.default(0),
  SVC_MEMTABLE_MAX_BYTES: positiveInt.default(128 * MiB),
  SVC_MEMTABLE_MAX_AGE_SECONDS: positiveInt.default(60),
  /**
   * document bytes the write-ahead log may hold beyond the committed segments (what a restart
   * after a crash replays): flushes start at 3/4 of it, bulk writes get 429 past it
   */
  SVC_WAL_MAX_UNFLUSHED_BYTES: positiveInt.default(128 * MiB),
  SVC_IDLE_INDEX_SECONDS: positiveInt.default(600),
  /**
   * threads that build memtables off the main thread, which then only takes requests in, scans
   * documents and writes the log; 0 builds them on the main thread
   */
  SVC_INDEXING_THREADS: nonNegativeInt.max(16).default(1),

  SVC_QUERY_THREADS: positiveInt.default(Math.max(1, os.availableParallelism())),
  /**
   * searches that wait for a turn once query threads + 1 run (like the search thread pool's
   * queue_size in Elasticsearch); past it a search gets 429 es_rejected_execution_exception
   */
  SVC_QUERY_QUEUE_SIZE: nonNegativeInt.default(1000),
  SVC_QUERY_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  SVC_MAX_OPEN_SCROLLS: positiveInt.default(500),
  SVC_AGGREGATION_MEMORY_BYTES: positiveInt.default(256 * MiB),
  SVC_MAX_BUCKETS: positiveInt.default(65535),
  /**
   * what segment readers keep decoded in memory (columns, term lists, points indexes, postings,
   * doc blocks), for the main thread and every query thread together; at most 64 GiB
   */
  SVC_READER_CACHE_BYTES: nonNegativeInt.max(64 * 1024 * MiB).default(READER_CACHE_DEFAULT_BYTES),
  SVC_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),

  /** where segment files live: empty = <data dir>/objects, a path, an Azure container SAS URL, or s3://bucket/prefix?... */
  SVC_OBJECT_STORE: z.string().default(''),
  /** PostgreSQL URL for the metastore; empty means the embedded SQLite file in the data dir */
  SVC_METASTORE_URL: z.string().default(''),
  /** treasurer: bytes written but not yet in the object store before bulk writes get 429 */
  SVC_STORAGE_MAX_PENDING_BYTES: nonNegativeInt.default(2048 * MiB),

  SVC_RBAC: boolFlag.default(false),
  SVC_BOOTSTRAP_KEY: z.string().optional(),
  SVC_JWT_AUDIENCE: z.string().optional(),
  SVC_JWT_ISSUER: z.string().optional(),
  SVC_JWT_JWKS_URL: z.string().url().optional(),
  SVC_JWT_JWKS_FILE: z.string().optional(),
  SVC_JWT_PUBLIC_KEY_FILE: z.string().optional(),
  SVC_JWT_HS256_SECRET: z.string().optional(),
  SVC_JWT_ALLOW_HS256: boolFlag.default(false),
  SVC_JWT_ROLES_CLAIM: z.string().min(1).default('roles'),
});

export type EnvSettings = z.infer<typeof envSchema>;
