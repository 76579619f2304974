/**
 * The single-document APIs: index a document under an `_id` (`PUT|POST /{index}/_doc/{id}`,
 * `PUT|POST /{index}/_create/{id}`, `POST /{index}/_doc` for a generated id), read it
 * (`GET|HEAD /{index}/_doc/{id}`, `GET|HEAD /{index}/_source/{id}`), update it
 * (`POST /{index}/_update/{id}`) and delete it (`DELETE /{index}/_doc/{id}`). Writes go
 * through the engine's write path, as a bulk item would.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError, IndexNotFoundError, NotFoundError, SvcError } from '../../common/index.js';
import type { WriteAction, WriteOp, WriteOutcome } from '../../engine/index.js';
import { assertNamedIndicesPermitted } from '../../auth/index.js';
import type { AccessContext } from '../../auth/index.js';
import type { ApiDeps } from '../deps.js';
import { bodyBuffer } from '../request-body.js';
import { sendJsonText } from '../json-reply.js';
import { stringParam, type QueryParams } from '../query-params.js';
import { assertWriteBudget } from '../bulk/bulk-route.js';
import { writeStatus, writtenFields } from '../bulk/written-fields.js';
import { parseUpdate } from '../bulk/parse-bulk.js';
import { filterSource, urlSourceFilter } from '../search/source-filter.js';

interface DocParams {
  index: string;
  id?: string;
}

type DocRequest = FastifyRequest<{ Params: DocParams; Querystring: QueryParams }>;

export function registerDocumentRoutes(app: FastifyInstance, deps: ApiDeps, accessOf: (request: FastifyRequest) => AccessContext): void {
  const write = (action: WriteAction | 'op_type') => async (request: DocRequest, reply: FastifyReply) => {
    const opType = stringParam(request.query, 'op_type');
    if (opType !== undefined && opType !== 'index' && opType !== 'create') {
      throw new BadRequestError(`opType must be 'create' or 'index', found: [${opType}]`);
    }
    const chosen: WriteAction = action === 'op_type' ? (opType === 'create' ? 'create' : 'index') : action;
    const required = chosen === 'delete' ? 'delete' : 'write';
    assertNamedIndicesPermitted(accessOf(request), required, [request.params.index]);
    const outcome = await writeOne(deps, request, chosen);
    if (!outcome.ok) throw outcome.error;
    return sendJsonText(reply, `{${writtenFields(outcome)}}`, writeStatus(outcome.result));
  };
  app.put('/:index/_doc/:id', write('op_type'));
  app.post('/:index/_doc/:id', write('op_type'));
  app.post('/:index/_doc', write('index'));
  app.put('/:index/_create/:id', write('create'));
  app.post('/:index/_create/:id', write('create'));
  app.post('/:index/_update/:id', write('update'));
  app.delete('/:index/_doc/:id', write('delete'));

  app.get('/:index/_doc/:id', async (request: DocRequest, reply: FastifyReply) => {
    assertNamedIndicesPermitted(accessOf(request), 'read', [request.params.index]);
    const index = readIndexOf(deps, request.params.index);
    const found = await deps.engine.getDocument(index, request.params.id!);
    if (found === null) return sendJsonText(reply, notFoundText(index, request.params.id!), 404);
    const source = filterSource(urlSourceFilter(request.query), found.source);
    return sendJsonText(reply, `{${foundFields(found)}${source === undefined ? '' : `,"_source":${source}`}}`);
  });

  app.get('/:index/_source/:id', async (request: DocRequest, reply: FastifyReply) => {
    assertNamedIndicesPermitted(accessOf(request), 'read', [request.params.index]);
    const index = readIndexOf(deps, request.params.index);
    const found = await deps.engine.getDocument(index, request.params.id!);
    if (found === null) throw new NotFoundError(`Document not found [${index}]/[_doc]/[${request.params.id!}]`, 'resource_not_found_exception');
    return sendJsonText(reply, filterSource(urlSourceFilter(request.query), found.source) ?? '{}');
  });
}

/** Writes one op with the request body as its document (index, create) or its update. */
async function writeOne(deps: ApiDeps, request: DocRequest, action: WriteAction): Promise<WriteOutcome> {
  const body = bodyBuffer(request.body);
  const id = request.params.id;
  if (id !== undefined && id.length === 0) throw new BadRequestError('Validation Failed: 1: if _id is specified it must not be empty;', 'action_request_validation_exception');
  const op: WriteOp = { index: '', start: 0, end: body.length, action, id };
  if (action === 'delete') {
    // a delete names an existing index; it creates none
    op.index = writeIndexOf(deps, request.params.index);
    deps.engine.requireShard(op.index);
  } else {
    assertWriteBudget(deps);
    op.index = deps.engine.writeIndexFor(request.params.index);
    if (action === 'update') {
      const update = parseUpdate(body.toString('utf8'));
      if (update instanceof SvcError) throw update;
      op.update = update;
    } else if (body.length === 0) {
      throw new BadRequestError('Validation Failed: 1: source is missing;', 'action_request_validation_exception');
    }
  }
  const [outcome] = await deps.engine.write(body, [op]);
  return outcome!;
}

function writeIndexOf(deps: ApiDeps, name: string): string {
  return deps.engine.writeIndexFor(name);
}

/** The index a read of one document goes to: the index itself, or the one index of an alias. */
export function readIndexOf(deps: ApiDeps, name: string): string {
  return readIndexIn((index) => deps.engine.shard(index) !== undefined, deps.engine.aliasMap(), name);
}

/** The index a read by `_id` addressed to `name` reads: the index itself, or the only index of the alias `name`. */
export function readIndexIn(exists: (index: string) => boolean, aliases: ReadonlyMap<string, readonly string[]>, name: string): string {
  if (exists(name)) return name;
  const indexes = aliases.get(name);
  if (indexes === undefined) throw new IndexNotFoundError(name);
  if (indexes.length !== 1) {
    throw new BadRequestError(`alias [${name}] has more than one index associated with it [${indexes.join(', ')}], can't execute a single index op`);
  }
  return indexes[0]!;
}

/** `_index` … `found` of a document found by `_id`. */
export function foundFields(found: { index: string; id: string; version: number; lid: number }): string {
  return `"_index":${JSON.stringify(found.index)},"_type":"_doc","_id":${JSON.stringify(found.id)},"_version":${found.version},"_seq_no":${Math.max(0, found.lid - 1)},"_primary_term":1,"found":true`;
}

export function notFoundText(index: string, id: string): string {
  return `{"_index":${JSON.stringify(index)},"_type":"_doc","_id":${JSON.stringify(id)},"found":false}`;
}
