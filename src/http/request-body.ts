/**
 * Request bodies arrive as raw Buffers (every content type), already gunzipped; these helpers
 * turn them into JSON values or NDJSON lines with Elasticsearch-style parse errors.
 */
import { BadRequestError } from '../common/index.js';

export function bodyBuffer(body: unknown): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(JSON.stringify(body));
}

/** Parses a JSON object body; empty bodies give `undefined`. */
export function jsonObjectBody(body: unknown): Record<string, unknown> | undefined {
  const buf = bodyBuffer(body);
  if (buf.length === 0 || isBlank(buf)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8'));
  } catch (err) {
    throw new BadRequestError(`failed to parse request body: ${(err as Error).message}`, 'x_content_parse_exception');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequestError('request body must be a JSON object', 'x_content_parse_exception');
  }
  return value as Record<string, unknown>;
}

function isBlank(buf: Buffer): boolean {
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/**
 * Splits an NDJSON body into its non-empty lines, as [start, end) byte offsets, without copying.
 * A trailing line without a newline counts (Elasticsearch requires the final newline; we are
 * lenient, as most clients send it anyway).
 */
export interface NdjsonLines {
  count: number;
  /** line k is bytes [bounds[2k], bounds[2k + 1]) of the body */
  bounds: Uint32Array;
}

/** The non-blank lines of an NDJSON body (a trailing CR left out), as byte ranges. */
export function ndjsonLines(buf: Buffer): NdjsonLines {
  let bounds = new Uint32Array(64);
  let count = 0;
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(0x0a, start);
    if (end === -1) end = buf.length;
    let stop = end;
    if (stop > start && buf[stop - 1] === 0x0d) stop--;
    if (!isBlankRange(buf, start, stop)) {
      if (2 * count + 2 > bounds.length) {
        const grown = new Uint32Array(bounds.length * 2);
        grown.set(bounds);
        bounds = grown;
      }
      bounds[2 * count] = start;
      bounds[2 * count + 1] = stop;
      count++;
    }
    start = end + 1;
  }
  return { count, bounds };
}

function isBlankRange(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}
