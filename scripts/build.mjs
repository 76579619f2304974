#!/usr/bin/env node
/**
 * Compiles the project (and bundles the web console, see build-console.mjs) into a fresh
 * directory under `.build/` and then points the `dist` link at it in one rename, so a running
 * service never sees its files deleted or half rewritten: it keeps loading modules (worker
 * threads start late) from the build it started from. Old builds are removed only when no live
 * process started from them (see `.build/<name>/.pids`).
 *
 * Usage: `node scripts/build.mjs [projectDir]` (default: this repository).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildConsole } from './build-console.mjs';

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const builds = path.join(root, '.build');
const dist = path.join(root, 'dist');
const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
const out = path.join(builds, name);

fs.mkdirSync(builds, { recursive: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json'), '--outDir', out], { stdio: 'inherit' });
if (result.status !== 0 || !(await buildConsole(root, out))) {
  fs.rmSync(out, { recursive: true, force: true });
  process.exit(result.status || 1);
}

// `dist` from before builds had their own directories is a plain folder: no process can be using
// a build this script made, so it goes (once)
const current = fs.lstatSync(dist, { throwIfNoEntry: false });
if (current && !current.isSymbolicLink()) fs.rmSync(dist, { recursive: true, force: true });
const link = `${dist}.${process.pid}.tmp`;
fs.rmSync(link, { force: true });
fs.symlinkSync(path.relative(root, out), link);
fs.renameSync(link, dist);

for (const entry of fs.readdirSync(builds)) {
  if (entry === name) continue;
  const dir = path.join(builds, entry);
  if (!inUse(dir)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A build is in use while a process that wrote its pid into `.pids` at start is alive. */
function inUse(dir) {
  let pids;
  try {
    pids = fs.readdirSync(path.join(dir, '.pids'));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch (err) {
      return err.code === 'EPERM';
    }
  });
}
