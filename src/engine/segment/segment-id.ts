/**
 * Segment ids of segment files: the file name without its extension.
 */
import path from 'node:path';

/** The segment id a file name implies: its base name without the last extension. */
export function segmentIdOf(filePath: string): string {
  const base = path.basename(filePath);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
