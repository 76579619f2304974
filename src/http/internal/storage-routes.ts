/**
 * The storage role's share of the cluster, asked by the coordinator lease holder:
 * `POST /_internal/storage/merge` (queue a merge of these segments of an index: answers 202 at
 * once, since a merge may take longer than a request should), `GET /_internal/storage/merges`
 * (the indexes with a merge queued or running here) and `POST /_internal/storage/gc` (one pass
 * of garbage collection in the object store); and on a cache node
 * `POST /_internal/segments/{index}/sync`, by which the storage role tells the index's owner
 * that a merge of it was committed.
 */
import type { FastifyInstance } from 'fastify';
import type { StorageService } from '../../cluster/index.js';
import { BadRequestError } from '../../common/index.js';
import type { Engine } from '../../engine/index.js';
import { jsonObjectBody } from '../request-body.js';

export function registerStorageRoutes(app: FastifyInstance, storage: StorageService): void {
  app.post('/_internal/storage/merge', async (request, reply) => {
    const body = jsonObjectBody(request.body) ?? {};
    const { index, from, to, segment_ids: ids } = body as { index?: unknown; from?: unknown; to?: unknown; segment_ids?: unknown };
    if (typeof index !== 'string' || !Number.isInteger(from) || !Number.isInteger(to) || !Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) {
      throw new BadRequestError('a merge names [index], the levels [from] and [to], and [segment_ids]');
    }
    storage.enqueue(index, { from: from as number, to: to as number, segmentIds: ids as string[] });
    return reply.code(202).send({ index, queued: true });
  });
  app.get('/_internal/storage/merges', async () => ({ merging: storage.merging() }));
  app.post('/_internal/storage/gc', async () => ({ deleted: await storage.collectGarbage() }));
}

export function registerSegmentSyncRoute(app: FastifyInstance, engine: Pick<Engine, 'syncSegments'>): void {
  app.post('/_internal/segments/:index/sync', async (request) => {
    const { index } = request.params as { index: string };
    return { index, swapped: await engine.syncSegments(index) };
  });
}
