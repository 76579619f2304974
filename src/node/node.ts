/**
 * The composition root: builds the roles of one process (api, cache, storage, coordinator),
 * starts them, and stops them gracefully — stop taking work, drain, flush, close — within the
 * shutdown timeout, while the liveness endpoint keeps answering.
 *
 * Every process joins the cluster's membership (heartbeats in the metastore; the coordinator
 * lease and index placement with the coordinator role). A process running every role runs the
 * data path whole, as it always did. In a cluster, a cache node runs the engine over the
 * indexes placed on it and serves them to the other processes over internal routes; the api
 * role routes writes to the cache node holding each index and spreads searches over them; a
 * process without the api role serves probes, metrics and the internal routes only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.js';
import { createLogger, Metrics, type Logger } from '../observability/index.js';
import { Engine, QueryPool, ReaderCacheBudget, useReaderCacheBudget } from '../engine/index.js';
import { openMetastore, type Metastore } from '../metastore/index.js';
import { buildApi, buildInternalApi, registerInternalRoutes, type Lifecycle } from '../http/index.js';
import {
  CacheHoldings,
  ClusterMember,
  ClusterRouting,
  ClusterWriteBudget,
  CompactionSchedule,
  drainNode,
  InternalClient,
  StorageService,
  storageNodes,
  UNFLUSHED_BYTES_STAT,
  waitDrained,
} from '../cluster/index.js';
import { connectIndexCatalog, syncAliases } from '../http/indices/index.js';
import { buildRoutedApi } from '../http/routed/index.js';
import { RealMemoryBreaker, ServiceUnavailableError } from '../common/index.js';
import { fencedCatalog, metastoreCatalog } from './metastore-catalog.js';
import { objectMetricsHooks, openObjectStore, type ObjectStore } from '../storage/index.js';
import { compactionMetrics, documentMetricsRecorder, queryPoolMetrics } from './engine-metrics.js';
import { OrgService, RbacService, createAuditLog } from '../auth/index.js';

export interface RunningNode {
  /** base URL the HTTP server listens on */
  url: string;
  port: number;
  app: FastifyInstance;
  /** the data path; undefined in a process of a cluster without the cache role */
  engine: Engine | undefined;
  /** this process's membership in the cluster */
  member: ClusterMember;
  metastore: Metastore;
  logger: Logger;
  metrics: Metrics;
  /** what segment readers keep, all threads together (SVC_READER_CACHE_BYTES); undefined without the data path */
  readerCache: ReaderCacheBudget | undefined;
  /** graceful stop: drain, flush, close; resolves when everything is closed */
  close(): Promise<void>;
}

const ALWAYS_SERVED = new Set(['/health/livez', '/health/readyz', '/metrics']);

export async function startNode(config: Config, opts: { logger?: Logger } = {}): Promise<RunningNode> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const metrics = new Metrics();
  await fs.promises.mkdir(config.dataDir, { recursive: true });

  const metastore = await openMetastore(
    config.metastoreUrl ? { kind: 'postgres', url: config.metastoreUrl } : { kind: 'sqlite', path: path.join(config.dataDir, 'metastore.sqlite') },
  );
  const split = !config.cluster.allRoles;
  const client = new InternalClient(config.cluster.secret);
  // in a cluster, the lease holder moves live indexes between cache nodes over internal calls
  const member = new ClusterMember({ config: config.cluster, nodeName: config.nodeName, metastore, logger, ...(split ? { client } : {}) });
  const lifecycle: { shuttingDown: boolean } & Lifecycle = { shuttingDown: false };
  const audit = createAuditLog(logger);
  const rbac = new RbacService(metastore.rbac, { audit });
  const org = new OrgService(metastore.org, { audit });
  const roles = config.cluster.roles;
  // one process runs the data path whole; in a cluster, cache nodes hold it
  const holdings = split && roles.includes('cache') ? new CacheHoldings(metastore, config.cluster.nodeId, config.cluster.sharedWalDir) : undefined;
  await holdings?.refresh();
  // in a cluster: whether a storage process merges (cache nodes then do not), and the write budget over all cache nodes
  const clusterState = split ? await ClusterState.read(metastore, config.cluster.nodeId) : undefined;
  const data = !split || holdings !== undefined ? await startDataPath(config, metastore, metrics, logger, holdings, member, clusterState) : undefined;
  const storage = split && roles.includes('storage') ? await startStorage(config, metastore, metrics, logger, client, data?.objectStore) : undefined;
  // a cache node of a cluster: its Elasticsearch API, reached by the api role through an internal route
  const esApp =
    split && data !== undefined
      ? buildApi({
          config,
          logger,
          metrics,
          engine: data.engine,
          lifecycle,
          rbac,
          org,
          metastore,
          queryPool: data.queryPool,
          cluster: member,
          clusterPendingBytes: (own) => clusterState!.budget.pendingBytes(own),
        })
      : undefined;
  const dataRoutes =
    data !== undefined && esApp !== undefined && holdings !== undefined
      ? {
          engine: data.engine,
          queryPool: data.queryPool,
          metrics,
          config,
          esApp,
          assertHeld: (indexes: readonly string[]) => holdings.assertHeld(indexes, holdings.leaseIntact(member)),
          handOver: (index: string, to: string) => holdings.handOver(data.engine, index, to, holdings.leaseIntact(member)),
          drain: (draining: boolean, waitMs?: number) => drainNode(member, metastore, draining, waitMs),
        }
      : undefined;
  let app: FastifyInstance;
  if (!split) {
    app = buildApi({ config, logger, metrics, engine: data!.engine, lifecycle, rbac, org, metastore, queryPool: data!.queryPool, cluster: member });
  } else if (roles.includes('api')) {
    const routing = new ClusterRouting({
      metastore,
      client,
      maxAgeMs: config.cluster.heartbeatIntervalMs,
      moveWaitMs: Math.max(2 * config.cluster.leaseMs, 10_000),
      movesFromDead: config.cluster.sharedWalDir !== undefined,
    });
    app = buildRoutedApi({ config, logger, metrics, lifecycle, rbac, org, metastore, cluster: member, routing, client, writeBudget: clusterState!.budget }, (routes) =>
      registerInternalRoutes(routes, { config, metastore, cluster: member, ...(dataRoutes === undefined ? {} : { data: dataRoutes }), ...(storage === undefined ? {} : { storage: storage.service }) }),
    );
  } else {
    app = buildInternalApi({
      config,
      logger,
      metrics,
      lifecycle,
      rbac,
      org,
      metastore,
      cluster: member,
      engine: data?.engine,
      ...(dataRoutes === undefined ? {} : { data: dataRoutes }),
      ...(storage === undefined ? {} : { storage: storage.service }),
    });
  }
  if (clusterState !== undefined) {
    if (data !== undefined) {
      member.reportFigures(() => ({ [UNFLUSHED_BYTES_STAT]: data.engine.pendingStorageBytes() }));
      clusterState.budget.countOwn(() => data.engine.pendingStorageBytes());
    }
    member.onHeartbeat(() => clusterState.refresh());
  }
  if (split && roles.includes('coordinator')) {
    const schedule = new CompactionSchedule({ metastore, client, logger, gcIntervalMs: config.cluster.gcIntervalMs, idleIndexMs: config.idleIndexMs });
    member.onHeartbeat(async () => {
      if (member.isCoordinatorLeader) await schedule.tick();
    });
  }
  if (holdings !== undefined && data !== undefined) {
    member.onHeartbeat(async () => {
      await holdings.reconcile(data.engine, member.leaseLapses);
      // aliases changed through another node
      await syncAliases(data.engine, metastore);
      // merges the storage role committed, in case its call did not come through
      if (clusterState?.storagePresent) {
        const live = await metastore.segments.listSegments();
        for (const index of data.engine.indexesWithReplacedSegments(live)) await data.engine.syncSegments(index);
      }
    });
  }
  let inFlight = 0;
  const counted = new WeakSet<object>();
  app.addHook('onRequest', async (request) => {
    if (lifecycle.shuttingDown && !ALWAYS_SERVED.has(request.url.split('?')[0]!)) {
      throw new ServiceUnavailableError('the node is shutting down');
    }
    counted.add(request);
    inFlight++;
  });
  app.addHook('onResponse', async (request) => {
    if (counted.delete(request)) inFlight--;
  });

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  await member.start(url);
  warnAboutClusterSettings(config, member.advertisedUrl, logger);
  logger.info(
    { url, nodeId: member.nodeId, roles: config.cluster.roles, dataDir: config.dataDir, objectStore: data?.objectStore.uri, rbac: config.rbac.enabled },
    'svc is listening',
  );
  if (data === undefined) {
    logger.info('ready');
  } else {
    // writes and searches are taken during the replay; readiness waits for it
    data.engine.recover().then(
      () => logger.info('ready'),
      (err: unknown) => logger.error({ err }, 'the write-ahead log could not be replayed; the node stays not ready'),
    );
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const deadline = Date.now() + config.shutdownTimeoutMs;
      // a cache node of a cluster hands its indexes over first, serving them until each is moved
      if (split && holdings !== undefined) await drainBeforeStop(member, metastore, logger, Date.now() + (2 * config.shutdownTimeoutMs) / 3);
      lifecycle.shuttingDown = true;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (data !== undefined) {
        try {
          await withTimeout(data.engine.close(), Math.max(0, deadline - Date.now()), 'flush on shutdown');
        } catch (err) {
          logger.error({ err }, 'engine did not close cleanly; the write-ahead log keeps every acknowledged document');
        }
      }
      await member.stop();
      await app.close();
      await esApp?.close();
      await storage?.service.close();
      await data?.queryPool.close();
      await data?.objectStore.close();
      if (storage !== undefined && storage.objectStore !== data?.objectStore) await storage.objectStore.close();
      await metastore.close();
      logger.info('svc stopped');
    })();
    return closing;
  };
  return { url, port, app, engine: data?.engine, member, metastore, logger, metrics, readerCache: data?.readerCache, close };
}

interface DataPath {
  engine: Engine;
  objectStore: ObjectStore;
  queryPool: QueryPool;
  readerCache: ReaderCacheBudget;
}

/** The engine over the object store, its catalog in the metastore, and the query threads. */
async function startDataPath(
  config: Config,
  metastore: Metastore,
  metrics: Metrics,
  logger: Logger,
  holdings: CacheHoldings | undefined,
  member: ClusterMember,
  clusterState: ClusterState | undefined,
): Promise<DataPath> {
  const objectStore = await openVerifiedObjectStore(config, metastore, metrics, logger);
  // before any segment is opened: the main thread's readers keep their entries under it too
  const readerCache = ReaderCacheBudget.create(config.readerCacheBytes);
  useReaderCacheBudget(readerCache, readerCache.acquireSlot());
  const engine = await Engine.load({
    dataDir: config.dataDir,
    catalog:
      holdings === undefined
        ? metastoreCatalog(metastore)
        : fencedCatalog(metastoreCatalog(metastore), (index) => holdings.leaseIntact(member) && !holdings.placedElsewhere(index)),
    segmentStore: objectStore,
    logger,
    memtableMaxBytes: config.memtableMaxBytes,
    indexingThreads: config.indexingThreads,
    memtableMaxAgeMs: config.memtableMaxAgeMs,
    walMaxUnflushedBytes: config.walMaxUnflushedBytes,
    idleIndexMs: config.idleIndexMs,
    onDocumentIndexed: documentMetricsRecorder(metrics),
    compactionEvents: compactionMetrics(metrics),
    ...(holdings === undefined
      ? {}
      : { holds: (index: string) => holdings.holds(index), walDir: holdings.walDir(), foreignWalDirs: () => holdings.foreignWalDirs() }),
    ...(clusterState === undefined ? {} : { mergesHere: () => !clusterState.storagePresent }),
  });
  await connectIndexCatalog({ engine, metastore, logger });
  metrics.watchIndexBytes(() => engine.indexBytes());
  const memory = config.memoryLimitBytes > 0 ? RealMemoryBreaker.forProcess(config.memoryLimitBytes) : undefined;
  const queryPool = new QueryPool({
    threads: config.queryThreads,
    queueSize: config.queryQueueSize,
    logger,
    events: queryPoolMetrics(metrics),
    readerCache,
    ...(memory === undefined ? {} : { beforeSearch: () => memory.check() }),
  });
  return { engine, objectStore, queryPool, readerCache };
}

/**
 * Drains a cache node that stops: its indexes are handed over to the other cache nodes while it
 * still serves them. What is left at `untilMs` (no other cache node, no coordinator) moves as a
 * stopped node's indexes move.
 */
async function drainBeforeStop(member: ClusterMember, metastore: Metastore, logger: Logger, untilMs: number): Promise<void> {
  try {
    await member.setDraining(true);
    const left = await waitDrained(metastore, member.nodeId, untilMs);
    if (left.length > 0) logger.warn({ indexes: left }, 'indexes not handed over before the stop: they move once this node has left');
    else logger.info('every index handed over to other cache nodes');
  } catch (err) {
    logger.warn({ err }, 'draining before the stop failed');
  }
}

/** The object store of the settings; one that cannot be used (a malformed or expired SAS URL, wrong credentials) stops the start. */
async function openVerifiedObjectStore(config: Config, metastore: Metastore, metrics: Metrics, logger: Logger): Promise<ObjectStore> {
  const objectStore = openObjectStore(config.objectStore, {
    dataDir: config.dataDir,
    hooks: objectMetricsHooks(metrics),
    onRetry: ({ op, key, attempt, delayMs }) => logger.warn({ op, key, attempt, delayMs }, 'object store request failed; retrying'),
  });
  try {
    await objectStore.verify();
  } catch (err) {
    await metastore.close();
    throw err;
  }
  return objectStore;
}

/** The storage role of a cluster: merges and garbage collection, on the data path's object store or one of its own. */
async function startStorage(
  config: Config,
  metastore: Metastore,
  metrics: Metrics,
  logger: Logger,
  client: InternalClient,
  shared: ObjectStore | undefined,
): Promise<{ service: StorageService; objectStore: ObjectStore }> {
  const objectStore = shared ?? (await openVerifiedObjectStore(config, metastore, metrics, logger));
  const scratchDir = path.join(config.dataDir, 'merges');
  // scratch files of merges cut short by a stop
  await fs.promises.rm(scratchDir, { recursive: true, force: true });
  const service = new StorageService({ metastore, store: objectStore, scratchDir, client, logger, gcGraceMs: config.cluster.gcGraceMs, events: compactionMetrics(metrics) });
  return { service, objectStore };
}

/**
 * What a process of a cluster reads of the others at each heartbeat: whether a storage process
 * is live (cache nodes then leave merges to it), and the cache nodes' unflushed bytes.
 */
class ClusterState {
  storagePresent = false;

  private constructor(
    private readonly metastore: Metastore,
    readonly budget: ClusterWriteBudget,
  ) {}

  static async read(metastore: Metastore, nodeId: string): Promise<ClusterState> {
    const state = new ClusterState(metastore, new ClusterWriteBudget(nodeId));
    await state.refresh();
    return state;
  }

  async refresh(): Promise<void> {
    const live = await this.metastore.nodes.liveNodes();
    this.storagePresent = storageNodes(live).length > 0;
    this.budget.observe(live);
  }
}

/** Settings that let the process start but leave a part of the cluster unusable. */
function warnAboutClusterSettings(config: Config, advertisedUrl: string, logger: Logger): void {
  if (config.cluster.allRoles) return;
  if (config.cluster.secret === undefined) {
    logger.warn('SVC_CLUSTER_SECRET is not set: the internal routes refuse every request, so the processes of this cluster cannot call each other');
  }
  const host = new URL(advertisedUrl).hostname;
  if (host === '0.0.0.0' || host === '[::]') {
    logger.warn({ advertisedUrl }, 'the advertised URL is a wildcard address other processes cannot reach: set SVC_ADVERTISE_URL');
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than the shutdown timeout`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
