/**
 * `GET /` answers as Elasticsearch 7.10.2 does, so that clients' product checks pass; health
 * endpoints for orchestrators (liveness stays up during a graceful shutdown); `GET /metrics`.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/index.js';
import type { Metrics } from '../../observability/index.js';
import type { ApiDeps, Lifecycle } from '../deps.js';

export const ES_VERSION = '7.10.2';

export function registerRootRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const clusterUuid = deps.config.clusterName;
  const root = {
    name: deps.config.nodeName,
    cluster_name: deps.config.clusterName,
    cluster_uuid: clusterUuid,
    version: {
      number: ES_VERSION,
      build_flavor: 'default',
      build_type: 'tar',
      build_hash: '747e1cc71def077253878a59143c1f785afa92b9',
      build_date: '2021-01-13T00:42:12.435326Z',
      build_snapshot: false,
      lucene_version: '8.7.0',
      minimum_wire_compatibility_version: '6.8.0',
      minimum_index_compatibility_version: '6.0.0-beta1',
    },
    tagline: 'You Know, for Search',
  };
  app.get('/', async () => root);

  registerProbeRoutes(app, deps);
}

export interface ProbeDeps {
  lifecycle: Lifecycle;
  metrics: Metrics;
  /** the engine whose write-ahead log replay readiness waits for; none in a process without one */
  engine?: Engine;
}

/** Liveness, readiness and metrics: served by every process, whatever its roles. */
export function registerProbeRoutes(app: FastifyInstance, deps: ProbeDeps): void {
  app.get('/health/livez', async () => ({ status: 'alive' }));
  app.get('/health/readyz', async (_req, reply) => {
    if (deps.lifecycle.shuttingDown) return reply.code(503).send({ status: 'shutting_down' });
    const engine = deps.engine;
    if (engine === undefined) return { status: 'ready' };
    const failure = engine.recoveryFailure;
    if (failure) return reply.code(503).send({ status: 'recovery_failed', reason: failure.message });
    // until the write-ahead log is replayed, searches miss some acknowledged documents
    if (!engine.recovered) return reply.code(503).send({ status: 'recovering' });
    return { status: 'ready' };
  });

  app.get('/metrics', async (_req, reply) => {
    const text = await deps.metrics.text();
    return reply.type(deps.metrics.contentType).send(text);
  });
}
