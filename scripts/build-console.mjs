/**
 * Builds the web console (`console/`) into `<out>/console/`: type-checks it with its own
 * tsconfig (it runs in a browser, so it has the DOM types and none of Node's), then bundles it
 * with esbuild into one script and one style sheet beside its `index.html`. The server serves
 * that folder at `/_console/`; nothing is fetched from elsewhere at run time.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * Returns false (after printing why) when the console does not type-check or bundle. A project
 * without a `console/` folder (the build script's own tests build small ones) has nothing to do.
 */
export async function buildConsole(root, out) {
  const source = path.join(root, 'console');
  if (!fs.existsSync(path.join(source, 'tsconfig.json'))) return true;
  const require = createRequire(import.meta.url);
  const tsc = require.resolve('typescript/bin/tsc');
  const checked = spawnSync(process.execPath, [tsc, '-p', path.join(source, 'tsconfig.json')], { stdio: 'inherit' });
  if (checked.status !== 0) return false;

  const esbuild = await import('esbuild');
  const target = path.join(out, 'console');
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: [path.join(source, 'src', 'index.tsx')],
      outfile: path.join(target, 'console.js'),
      bundle: true,
      format: 'esm',
      target: 'es2022',
      platform: 'browser',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      minify: true,
      sourcemap: 'linked',
      legalComments: 'linked',
      logLevel: 'warning',
    });
  } catch {
    // esbuild has printed the errors
    return false;
  }
  fs.copyFileSync(path.join(source, 'index.html'), path.join(target, 'index.html'));
  return true;
}
