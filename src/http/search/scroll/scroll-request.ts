/**
 * The forms Elasticsearch 7.10 accepts for continuing and clearing scrolls. Continue: the id in
 * the body (`{"scroll_id": "...", "scroll": "1m"}`, which wins), in the path
 * (`/_search/scroll/<id>`) or as the `scroll_id` URL parameter; the keep-alive in the body or
 * as `scroll=`. Clear: ids in the body (a string or an array) or comma-separated in the path;
 * `_all` clears every scroll of the actor. A body that is not JSON is read as a bare scroll id,
 * as releases before 6.0 accepted.
 */
import { BadRequestError } from '../../../common/index.js';
import { bodyBuffer } from '../../request-body.js';
import { stringParam, type QueryParams } from '../../query-params.js';
import { parseKeepAlive } from '../search-request.js';
import { assertScrollIdShape } from './scroll-id.js';

export interface ContinueRequest {
  scrollId: string;
  keepAliveMs?: number;
}

/** A JSON object body, a bare-text body (returned as `text`), or nothing. */
function readBody(body: unknown): { json?: Record<string, unknown>; text?: string } {
  const text = bodyBuffer(body).toString('utf8').trim();
  if (text === '') return {};
  if (text.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new BadRequestError(`Failed to parse request body: ${(err as Error).message}`, 'x_content_parse_exception');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new BadRequestError('request body must be a JSON object', 'x_content_parse_exception');
    }
    return { json: value as Record<string, unknown> };
  }
  return { text };
}

function unknownParameter(key: string, value: unknown): BadRequestError {
  const token = Array.isArray(value) ? 'START_ARRAY' : typeof value === 'object' && value !== null ? 'START_OBJECT' : 'VALUE_STRING';
  return new BadRequestError(`Unknown parameter [${key}] in request body or parameter is of the wrong type[${token}] `);
}

export function parseContinueRequest(params: QueryParams, pathId: string | undefined, body: unknown): ContinueRequest {
  let scrollId = pathId ?? stringParam(params, 'scroll_id');
  let scroll: unknown = stringParam(params, 'scroll');
  const { json, text } = readBody(body);
  if (text !== undefined) scrollId = text;
  if (json !== undefined) {
    for (const [key, value] of Object.entries(json)) {
      if (key === 'scroll_id' && typeof value === 'string') scrollId = value;
      else if (key === 'scroll' && (typeof value === 'string' || typeof value === 'number')) scroll = value;
      else throw unknownParameter(key, value);
    }
  }
  if (scrollId === undefined || scrollId === '') {
    throw new BadRequestError('Validation Failed: 1: scrollId is missing;', 'action_request_validation_exception');
  }
  assertScrollIdShape(scrollId);
  return { scrollId, keepAliveMs: scroll === undefined || scroll === '' ? undefined : parseKeepAlive(scroll) };
}

/** The ids to clear; `['_all']` means every scroll of the actor. */
export function parseClearRequest(params: QueryParams, pathIds: string | undefined, body: unknown): string[] {
  let ids: string[] = [];
  const fromList = (s: string) => s.split(',').map((p) => p.trim()).filter(Boolean);
  if (pathIds !== undefined) ids = fromList(pathIds);
  else {
    const param = stringParam(params, 'scroll_id');
    if (param !== undefined) ids = fromList(param);
  }
  const { json, text } = readBody(body);
  if (text !== undefined) ids = fromList(text);
  if (json !== undefined) {
    for (const [key, value] of Object.entries(json)) {
      if (key !== 'scroll_id') throw unknownParameter(key, value);
      if (typeof value === 'string') ids = [value];
      else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) ids = value as string[];
      else throw unknownParameter(key, value);
    }
  }
  if (ids.length === 0) throw new BadRequestError('Validation Failed: 1: no scroll ids specified;', 'action_request_validation_exception');
  if (ids.includes('_all')) return ['_all'];
  for (const id of ids) assertScrollIdShape(id);
  return ids;
}
