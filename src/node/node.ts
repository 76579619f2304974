/**
 * The composition root: builds the roles of one process (api, cache, storage, coordinator),
 * starts them, and stops them gracefully — stop taking work, drain, flush, close — within the
 * shutdown timeout, while the liveness endpoint keeps answering.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.js';
import { createLogger, Metrics, type Logger } from '../observability/index.js';
import { Engine, QueryPool, ReaderCacheBudget, useReaderCacheBudget } from '../engine/index.js';
import { openMetastore, type Metastore } from '../metastore/index.js';
import { buildApi, type Lifecycle } from '../http/index.js';
import { connectIndexCatalog } from '../http/indices/index.js';
import { ServiceUnavailableError } from '../common/index.js';
import { metastoreCatalog } from './metastore-catalog.js';
import { objectMetricsHooks, openObjectStore } from '../storage/index.js';
import { compactionMetrics, documentMetricsRecorder, queryPoolMetrics } from './engine-metrics.js';
import { OrgService, RbacService, createAuditLog } from '../auth/index.js';

export interface RunningNode {
  /** base URL the HTTP server listens on */
  url: string;
  port: number;
  app: FastifyInstance;
  engine: Engine;
  metastore: Metastore;
  logger: Logger;
  metrics: Metrics;
  /** what segment readers keep, all threads together (SVC_READER_CACHE_BYTES) */
  readerCache: ReaderCacheBudget;
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
  // an unusable object store (a malformed or expired SAS URL, wrong credentials) stops the start
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
  // before any segment is opened: the main thread's readers keep their entries under it too
  const readerCache = ReaderCacheBudget.create(config.readerCacheBytes);
  useReaderCacheBudget(readerCache, readerCache.acquireSlot());
  const engine = await Engine.load({
    dataDir: config.dataDir,
    catalog: metastoreCatalog(metastore),
    segmentStore: objectStore,
    logger,
    memtableMaxBytes: config.memtableMaxBytes,
    memtableMaxAgeMs: config.memtableMaxAgeMs,
    walMaxUnflushedBytes: config.walMaxUnflushedBytes,
    idleIndexMs: config.idleIndexMs,
    onDocumentIndexed: documentMetricsRecorder(metrics),
    compactionEvents: compactionMetrics(metrics),
  });
  await connectIndexCatalog({ engine, metastore, logger });
  metrics.watchIndexBytes(() => engine.indexBytes());
  const queryPool = new QueryPool({ threads: config.queryThreads, queueSize: config.queryQueueSize, logger, events: queryPoolMetrics(metrics), readerCache });

  const lifecycle: { shuttingDown: boolean } & Lifecycle = { shuttingDown: false };
  const audit = createAuditLog(logger);
  const rbac = new RbacService(metastore.rbac, { audit });
  const org = new OrgService(metastore.org, { audit });
  const app = buildApi({ config, logger, metrics, engine, lifecycle, rbac, org, metastore, queryPool });
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
  logger.info({ url, dataDir: config.dataDir, objectStore: objectStore.uri, rbac: config.rbac.enabled }, 'svc is listening');
  // writes and searches are taken during the replay; readiness waits for it
  engine.recover().then(
    () => logger.info('ready'),
    (err: unknown) => logger.error({ err }, 'the write-ahead log could not be replayed; the node stays not ready'),
  );

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      lifecycle.shuttingDown = true;
      const deadline = Date.now() + config.shutdownTimeoutMs;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      try {
        await withTimeout(engine.close(), Math.max(0, deadline - Date.now()), 'flush on shutdown');
      } catch (err) {
        logger.error({ err }, 'engine did not close cleanly; the write-ahead log keeps every acknowledged document');
      }
      await app.close();
      await queryPool.close();
      await objectStore.close();
      await metastore.close();
      logger.info('svc stopped');
    })();
    return closing;
  };
  return { url, port, app, engine, metastore, logger, metrics, readerCache, close };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than the shutdown timeout`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
