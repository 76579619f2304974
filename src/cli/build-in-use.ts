/**
 * Marks the compiled build this process runs from as in use (`.build/<name>/.pids/<pid>`), so a
 * build made while the service runs (scripts/build.mjs) leaves these files in place: worker
 * threads load their modules long after start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Best effort: a read-only install has no builds made beside it and needs no mark. */
export function markBuildInUse(): void {
  // this file is <build>/src/cli/build-in-use.js; only builds under .build/ are marked
  const build = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  if (path.basename(path.dirname(build)) !== '.build') return;
  const mark = path.join(build, '.pids', String(process.pid));
  try {
    fs.mkdirSync(path.dirname(mark), { recursive: true });
    fs.writeFileSync(mark, '');
  } catch {
    return;
  }
  process.on('exit', () => fs.rmSync(mark, { force: true }));
}
