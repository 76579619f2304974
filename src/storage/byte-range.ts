/**
 * Argument checks and HTTP header parsing for ranged reads.
 */
import { BadRequestError } from '../common/errors.js';

/** Throws unless offset and length are non-negative safe integers. */
export function checkRange(offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new BadRequestError(`range offset must be a non-negative integer, got ${offset}`);
  if (!Number.isSafeInteger(length) || length < 0) throw new BadRequestError(`range length must be a non-negative integer, got ${length}`);
}

/** The object's size from a Content-Range header: "bytes 0-9/100" gives 100, "bytes 0-9/*" nothing. */
export function totalFromContentRange(contentRange: string | undefined): number | undefined {
  const m = contentRange ? /\/(\d+)\s*$/.exec(contentRange) : null;
  return m ? Number(m[1]) : undefined;
}
