/**
 * `_bulk` bodies: NDJSON pairs of an action line and a document line (`delete` has no document
 * line). A malformed action line fails the whole request (nothing is stored); document lines
 * are left as byte ranges for the engine, where a bad one fails only its item; an `update`
 * line is parsed here (`doc`, `upsert`, `doc_as_upsert`), and a bad one fails only its item.
 */
import { BadRequestError, jsonKind, SvcError } from '../../common/index.js';
import type { UpdateRequest } from '../../engine/index.js';
import { ndjsonLines } from '../request-body.js';

export type BulkAction = 'index' | 'create' | 'update' | 'delete';
const ACTIONS: ReadonlySet<string> = new Set(['index', 'create', 'update', 'delete']);

/** An action with its document line as bytes [start, end) of the body (parsed by the engine). */
export type BulkItem = (
  | { action: BulkAction; index: string; id?: string; start: number; end: number; update?: UpdateRequest; error?: undefined }
  | { action: BulkAction; index: string; id?: string; error: SvcError }
) &
  /** the item's lines (action and document) are bytes [spanStart, spanEnd) of the body */
  { spanStart: number; spanEnd: number };

export interface ParsedBulk {
  items: BulkItem[];
}

export function parseBulk(body: Buffer, defaultIndex: string | undefined): ParsedBulk {
  const lines = ndjsonLines(body);
  const items: BulkItem[] = [];
  let i = 0;
  // shippers repeat one action line for a whole batch: parse it once
  let lastStart = 0;
  let lastEnd = 0;
  let lastAction: { action: BulkAction; meta: Record<string, unknown> } | undefined;
  const { count, bounds } = lines;
  while (i < count) {
    const start = bounds[2 * i]!;
    const end = bounds[2 * i + 1]!;
    const lineNo = i + 1;
    // compared as bytes: no string per line
    if (lastAction === undefined || body.compare(body, lastStart, lastEnd, start, end) !== 0) {
      lastAction = parseActionLine(body.toString('utf8', start, end), lineNo);
      lastStart = start;
      lastEnd = end;
    }
    const { action, meta } = lastAction;
    i++;
    const index = typeof meta._index === 'string' && meta._index.length > 0 ? meta._index : defaultIndex;
    if (index === undefined) {
      throw new BadRequestError(`Validation Failed: 1: index is missing for the action at line [${lineNo}];`, 'action_request_validation_exception');
    }
    const idProblem = idError(meta._id, action);
    const id = idProblem === undefined && meta._id !== undefined ? String(meta._id) : undefined;
    if (action === 'delete') {
      items.push(idProblem ? { action, index, error: idProblem, spanStart: start, spanEnd: end } : { action, index, id, start: 0, end: 0, spanStart: start, spanEnd: end });
      continue;
    }
    if (i >= count) {
      throw new BadRequestError(`the action at line [${lineNo}] has no document line after it`, 'illegal_argument_exception');
    }
    const docStart = bounds[2 * i]!;
    const docEnd = bounds[2 * i + 1]!;
    i++;
    if (idProblem) {
      items.push({ action, index, error: idProblem, spanStart: start, spanEnd: docEnd });
      continue;
    }
    if (action === 'update') {
      const update = parseUpdate(body.toString('utf8', docStart, docEnd));
      items.push(
        update instanceof SvcError
          ? { action, index, id, error: update, spanStart: start, spanEnd: docEnd }
          : { action, index, id, start: docStart, end: docEnd, update, spanStart: start, spanEnd: docEnd },
      );
      continue;
    }
    items.push({ action, index, id, start: docStart, end: docEnd, spanStart: start, spanEnd: docEnd });
  }
  if (items.length === 0) {
    throw new BadRequestError('Validation Failed: 1: no requests added;', 'action_request_validation_exception');
  }
  return { items };
}

function parseActionLine(text: string, lineNo: number): { action: BulkAction; meta: Record<string, unknown> } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequestError(`Malformed action/metadata line [${lineNo}], expected a JSON object`, 'illegal_argument_exception');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequestError(`Malformed action/metadata line [${lineNo}], expected START_OBJECT but found a JSON ${jsonKind(value)}`, 'illegal_argument_exception');
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    throw new BadRequestError(`Malformed action/metadata line [${lineNo}], expected exactly one action but found [${keys.join(', ')}]`, 'illegal_argument_exception');
  }
  const action = keys[0]!;
  if (!ACTIONS.has(action)) {
    throw new BadRequestError(`Malformed action/metadata line [${lineNo}], expected one of [create, delete, index, update] but found [${action}]`, 'illegal_argument_exception');
  }
  const meta = (value as Record<string, unknown>)[action];
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    throw new BadRequestError(`Malformed action/metadata line [${lineNo}], expected an object for [${action}]`, 'illegal_argument_exception');
  }
  const m = meta as Record<string, unknown>;
  if (m._index !== undefined && typeof m._index !== 'string') {
    throw new BadRequestError(`Malformed action/metadata line [${lineNo}], [_index] must be a string`, 'illegal_argument_exception');
  }
  return { action: action as BulkAction, meta: m };
}

/** Why an action's `_id` is refused, or undefined when it is fine (or absent where allowed). */
function idError(id: unknown, action: BulkAction): SvcError | undefined {
  if (id === undefined || id === null) {
    return action === 'update' || action === 'delete' ? new BadRequestError('Validation Failed: 1: id is missing;', 'action_request_validation_exception') : undefined;
  }
  if (typeof id !== 'string' && typeof id !== 'number') return new BadRequestError(`[_id] must be a string, found a JSON ${jsonKind(id)}`, 'illegal_argument_exception');
  const text = String(id);
  if (text.length === 0) return new BadRequestError('Validation Failed: 1: if _id is specified it must not be empty;', 'action_request_validation_exception');
  if (Buffer.byteLength(text, 'utf8') > 512) {
    return new BadRequestError(`Validation Failed: 1: id [${text}] is too long, must be no longer than 512 bytes but was: ${Buffer.byteLength(text, 'utf8')};`, 'action_request_validation_exception');
  }
  return undefined;
}

/** The body of an update: `doc`, `upsert`, `doc_as_upsert`; a script is refused. */
export function parseUpdate(text: string): UpdateRequest | SvcError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return new BadRequestError(`failed to parse the update: ${(err as Error).message}`, 'x_content_parse_exception');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return new BadRequestError('the update must be a JSON object', 'x_content_parse_exception');
  const v = value as Record<string, unknown>;
  if (v.script !== undefined) {
    return new BadRequestError('scripts are not supported: update with a partial [doc] (and [upsert] or [doc_as_upsert]) instead', 'illegal_argument_exception');
  }
  for (const key of Object.keys(v)) {
    if (!['doc', 'upsert', 'doc_as_upsert', 'detect_noop', '_source'].includes(key)) {
      return new BadRequestError(`[UpdateRequest] unknown field [${key}]`, 'x_content_parse_exception');
    }
  }
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (v.doc !== undefined && !isObject(v.doc)) return new BadRequestError('[doc] must be an object', 'x_content_parse_exception');
  if (v.upsert !== undefined && !isObject(v.upsert)) return new BadRequestError('[upsert] must be an object', 'x_content_parse_exception');
  if (v.doc === undefined && v.upsert === undefined) {
    return new BadRequestError('Validation Failed: 1: script or doc is missing;', 'action_request_validation_exception');
  }
  const update: UpdateRequest = {};
  if (v.doc !== undefined) update.doc = v.doc as Record<string, unknown>;
  if (v.upsert !== undefined) update.upsert = v.upsert as Record<string, unknown>;
  if (v.doc_as_upsert === true) update.docAsUpsert = true;
  return update;
}
