/**
 * `GET|POST /_mget` and `/{index}/_mget`: documents by `_id`, from `docs` (each with `_index`,
 * `_id`, optional `_source`) or `ids` (with the index from the path). Each document answers on
 * its own: found, not found, or an error (a missing or forbidden index).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError, SvcError } from '../../common/index.js';
import { assertNamedIndicesPermitted, forbiddenIndexError, type AccessContext } from '../../auth/index.js';
import type { ApiDeps } from '../deps.js';
import { esErrorBody } from '../error-render.js';
import { jsonObjectBody } from '../request-body.js';
import { sendJsonText } from '../json-reply.js';
import type { QueryParams } from '../query-params.js';
import { filterSource, parseSourceFilter, urlSourceFilter, type SourceFilter } from '../search/source-filter.js';
import { foundFields, notFoundText, readIndexOf } from './document-routes.js';

interface MgetParams {
  index?: string;
}

export interface MgetDoc {
  index: string;
  id: string;
  source: SourceFilter;
}

export function registerMgetRoutes(app: FastifyInstance, deps: ApiDeps, accessOf: (request: FastifyRequest) => AccessContext): void {
  const handler = async (request: FastifyRequest<{ Params: MgetParams; Querystring: QueryParams }>, reply: FastifyReply) => {
    const access = accessOf(request);
    if (request.params.index !== undefined) assertNamedIndicesPermitted(access, 'read', [request.params.index]);
    const docs = parseMget(request.body, request.params.index, request.query);
    const parts: string[] = [];
    for (const doc of docs) parts.push(await renderDoc(deps, access, doc));
    return sendJsonText(reply, `{"docs":[${parts.join(',')}]}`);
  };
  app.get('/_mget', handler);
  app.post('/_mget', handler);
  app.get('/:index/_mget', handler);
  app.post('/:index/_mget', handler);
}

async function renderDoc(deps: ApiDeps, access: AccessContext, doc: MgetDoc): Promise<string> {
  try {
    if (!access.can('read', doc.index)) throw forbiddenIndexError('read', doc.index);
    const index = readIndexOf(deps, doc.index);
    const found = await deps.engine.getDocument(index, doc.id);
    if (found === null) return notFoundText(index, doc.id);
    const source = filterSource(doc.source, found.source);
    return `{${foundFields(found)}${source === undefined ? '' : `,"_source":${source}`}}`;
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    return mgetErrorText(doc, err);
  }
}

/** The entry of a document that could not be read (a missing or forbidden index). */
export function mgetErrorText(doc: MgetDoc, err: SvcError): string {
  return JSON.stringify({ _index: doc.index, _type: '_doc', _id: doc.id, error: esErrorBody(err.type, err.reason, err.status, err.details).error });
}

export function parseMget(body: unknown, pathIndex: string | undefined, params: QueryParams): MgetDoc[] {
  const b = jsonObjectBody(body);
  if (b === undefined) throw new BadRequestError('Validation Failed: 1: no documents to get;', 'action_request_validation_exception');
  const defaultSource = urlSourceFilter(params);
  const docs: MgetDoc[] = [];
  const problems: string[] = [];
  if (Array.isArray(b.docs)) {
    b.docs.forEach((d: unknown, i) => {
      if (typeof d !== 'object' || d === null || Array.isArray(d)) throw new BadRequestError('[docs] must hold objects', 'x_content_parse_exception');
      const entry = d as Record<string, unknown>;
      const index = typeof entry._index === 'string' ? entry._index : pathIndex;
      const id = typeof entry._id === 'string' || typeof entry._id === 'number' ? String(entry._id) : undefined;
      if (index === undefined) problems.push(`${problems.length + 1}: index is missing for doc ${i};`);
      if (id === undefined) problems.push(`${problems.length + 1}: id is missing for doc ${i};`);
      const source = entry._source === undefined ? defaultSource : parseSourceFilter(entry._source);
      if (index !== undefined && id !== undefined) docs.push({ index, id, source });
    });
  } else if (Array.isArray(b.ids)) {
    b.ids.forEach((id: unknown, i) => {
      if (pathIndex === undefined) problems.push(`${problems.length + 1}: index is missing for doc ${i};`);
      else if (typeof id !== 'string' && typeof id !== 'number') problems.push(`${problems.length + 1}: id is missing for doc ${i};`);
      else docs.push({ index: pathIndex, id: String(id), source: defaultSource });
    });
  } else {
    throw new BadRequestError('unexpected content: the body needs [docs] or [ids]', 'parsing_exception');
  }
  if (problems.length > 0) throw new BadRequestError(`Validation Failed: ${problems.join(' ')}`, 'action_request_validation_exception');
  if (docs.length === 0) throw new BadRequestError('Validation Failed: 1: no documents to get;', 'action_request_validation_exception');
  return docs;
}
