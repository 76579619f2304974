/**
 * `_bulk` bodies: NDJSON pairs of an action line and a document line. A malformed action line
 * fails the whole request (nothing is stored); document lines are left as byte ranges for the
 * engine, where a bad one fails only its item.
 */
import { BadRequestError, jsonKind, SvcError } from '../../common/index.js';
import { ndjsonLines } from '../request-body.js';

export type BulkAction = 'index' | 'create' | 'update' | 'delete';
const ACTIONS: ReadonlySet<string> = new Set(['index', 'create', 'update', 'delete']);

/** An action with its document line as bytes [start, end) of the body (parsed by the engine). */
export type BulkItem =
  | { action: BulkAction; index: string; start: number; end: number; error?: undefined }
  | { action: BulkAction; index: string; error: SvcError };

export interface ParsedBulk {
  items: BulkItem[];
}

export function parseBulk(body: Buffer, defaultIndex: string | undefined): ParsedBulk {
  const lines = ndjsonLines(body);
  const items: BulkItem[] = [];
  let i = 0;
  // shippers repeat one action line for a whole batch: parse it once
  let lastActionText = '';
  let lastAction: { action: BulkAction; meta: Record<string, unknown> } | undefined;
  while (i < lines.length) {
    const [start, end] = lines[i]!;
    const lineNo = i + 1;
    const actionText = body.toString('utf8', start, end);
    if (lastAction === undefined || actionText !== lastActionText) {
      lastAction = parseActionLine(actionText, lineNo);
      lastActionText = actionText;
    }
    const { action, meta } = lastAction;
    i++;
    const index = typeof meta._index === 'string' && meta._index.length > 0 ? meta._index : defaultIndex;
    if (index === undefined) {
      throw new BadRequestError(`Validation Failed: 1: index is missing for the action at line [${lineNo}];`, 'action_request_validation_exception');
    }
    if (action === 'delete') {
      items.push({ action, index, error: unsupported(action) });
      continue;
    }
    if (i >= lines.length) {
      throw new BadRequestError(`the action at line [${lineNo}] has no document line after it`, 'illegal_argument_exception');
    }
    const [docStart, docEnd] = lines[i]!;
    i++;
    if (action === 'update') {
      items.push({ action, index, error: unsupported(action) });
      continue;
    }
    items.push({ action, index, start: docStart, end: docEnd });
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

function unsupported(action: string): SvcError {
  return new BadRequestError(`bulk action [${action}] is not supported: documents are immutable; use [index] or [create]`, 'illegal_argument_exception');
}

