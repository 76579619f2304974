/**
 * The built console, read once into memory: a handful of small files, so a request is a map
 * lookup, and a name that is not in the map (`..`, a folder) can never reach the file system.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface ConsoleFile {
  body: Buffer;
  contentType: string;
  /** strong validator, so a reload costs a 304 */
  etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The files of `dir` by name (flat: the bundle has no sub-folders); empty when it was not built. */
export function loadConsoleFiles(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!fs.existsSync(dir)) return files;
  for (const name of fs.readdirSync(dir)) {
    const type = CONTENT_TYPES[path.extname(name)];
    const full = path.join(dir, name);
    if (type === undefined || !fs.statSync(full).isFile()) continue;
    const body = fs.readFileSync(full);
    const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    files.set(name, { body, contentType: type, etag });
  }
  return files;
}
