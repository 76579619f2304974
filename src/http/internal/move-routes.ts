/**
 * Routes of a cache node for moving its indexes while it runs:
 * - `POST /_internal/handover/{index}` `{"to": node id}`: the coordinator lease holder asks the
 *   owner to hand an index over (the placement names `to` in `moving_to`); answered once the
 *   placement switched, with `{index, from, to}`; 503 when the move was withdrawn or failed
 *   (the index then stays here).
 * - `POST /_internal/drain` (`?wait_for_completion`, `?timeout`, default 30s): the node starts
 *   draining; with `wait_for_completion` the answer comes when no index is placed on it (or at
 *   the timeout, or when no other cache node can take them), `{node_id, draining, indexes}`
 *   naming the indexes still placed on it. `DELETE /_internal/drain` ends the drain.
 */
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../common/index.js';
import type { DrainState } from '../../cluster/index.js';
import { parseTimeParam } from '../indices/units.js';
import { boolParam, type QueryParams } from '../query-params.js';
import { jsonObjectBody } from '../request-body.js';

export interface MoveRouteDeps {
  handOver(index: string, to: string): Promise<void>;
  /** starts or ends the drain; with `waitMs`, waits for the indexes to leave up to that long */
  drain(draining: boolean, waitMs?: number): Promise<DrainState>;
}

export function registerMoveRoutes(app: FastifyInstance, deps: MoveRouteDeps, nodeId: string): void {
  app.post('/_internal/handover/:index', async (request) => {
    const { index } = request.params as { index: string };
    const to = jsonObjectBody(request.body)?.to;
    if (typeof to !== 'string' || to === '') throw new BadRequestError('[to] must name the cache node the index is handed over to');
    await deps.handOver(index, to);
    return { index, from: nodeId, to };
  });
  app.post('/_internal/drain', async (request) => {
    const query = request.query as QueryParams;
    const wait = boolParam(query, 'wait_for_completion') ?? false;
    const timeout = typeof query.timeout === 'string' ? parseTimeParam(query.timeout, 'timeout') : 30_000;
    return deps.drain(true, wait ? timeout : undefined);
  });
  app.delete('/_internal/drain', async () => deps.drain(false));
}
