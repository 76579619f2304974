/**
 * `POST /_internal/placements/{index}`: the coordinator lease holder places an index that has
 * no cache node yet (a write or `PUT /{index}` about to create it) and answers with its
 * placement. Another coordinator answers 503: the caller asks the lease holder.
 */
import type { FastifyInstance } from 'fastify';
import type { ClusterMember } from '../../cluster/index.js';

export function registerPlacementRoute(app: FastifyInstance, member: Pick<ClusterMember, 'placeNow'>): void {
  app.post('/_internal/placements/:index', async (request) => {
    const { index } = request.params as { index: string };
    const placed = await member.placeNow(index);
    return { index: placed.index, node_id: placed.nodeId, lease_epoch: placed.leaseEpoch };
  });
}
