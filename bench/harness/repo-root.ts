/** The repository root: the nearest folder above this file holding package.json (runs from a build). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the repository root above the benchmark');
    dir = parent;
  }
  return dir;
}
