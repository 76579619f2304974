import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '../support/repo-root.js';
import { exited, mainScript, spawnNode } from '../support/node.js';

const run = promisify(execFile);

/** Builds `project` with the repository's build script; returns the build `dist` points at. */
async function build(project: string): Promise<string> {
  await run(process.execPath, [path.join(repoRoot(), 'scripts', 'build.mjs'), project]);
  return fs.realpathSync(path.join(project, 'dist'));
}

describe('build into a fresh directory and swap the dist link', () => {
  let project: string;
  before(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-build-'));
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', outDir: 'dist', rootDir: '.' }, include: ['src/**/*.ts'] }),
    );
    fs.mkdirSync(path.join(project, 'src'));
    fs.writeFileSync(path.join(project, 'src', 'main.ts'), 'export const version = 1;\n');
  });
  after(() => fs.rmSync(project, { recursive: true, force: true }));

  it('keeps a build a live process started from and removes the ones nobody runs', async () => {
    // a dist folder from before builds had their own directories is replaced by the link
    fs.mkdirSync(path.join(project, 'dist'));
    const first = await build(project);
    assert.ok(fs.lstatSync(path.join(project, 'dist')).isSymbolicLink());
    assert.ok(fs.existsSync(path.join(first, 'src', 'main.js')));

    // this test's own process is alive: the first build stays while its mark names it
    fs.mkdirSync(path.join(first, '.pids'));
    fs.writeFileSync(path.join(first, '.pids', String(process.pid)), '');
    fs.writeFileSync(path.join(project, 'src', 'main.ts'), 'export const version = 2;\n');
    const second = await build(project);
    assert.notEqual(second, first);
    assert.match(fs.readFileSync(path.join(project, 'dist', 'src', 'main.js'), 'utf8'), /version = 2/);
    assert.match(fs.readFileSync(path.join(first, 'src', 'main.js'), 'utf8'), /version = 1/);

    // a mark left by a process that is gone (killed) does not keep a build
    fs.rmSync(path.join(first, '.pids', String(process.pid)));
    fs.writeFileSync(path.join(first, '.pids', '999999999'), '');
    const third = await build(project);
    assert.deepEqual(fs.readdirSync(path.join(project, '.build')), [path.basename(third)]);
  });

  it('a failed compile leaves the current build in place', async () => {
    const current = fs.realpathSync(path.join(project, 'dist'));
    fs.writeFileSync(path.join(project, 'src', 'main.ts'), 'export const version: number = "three";\n');
    await assert.rejects(build(project));
    assert.equal(fs.realpathSync(path.join(project, 'dist')), current);
    assert.deepEqual(fs.readdirSync(path.join(project, '.build')), [path.basename(current)]);
  });
});

describe('a running service marks its build as in use', () => {
  it('writes its pid into the build it runs from and removes it when it stops', async (t) => {
    const build = path.resolve(path.dirname(mainScript()), '..');
    if (path.basename(path.dirname(build)) !== '.build') return t.skip('not running from a build under .build/');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-build-mark-'));
    const { child } = await spawnNode(dataDir);
    try {
      assert.ok(fs.existsSync(path.join(build, '.pids', String(child.pid))));
    } finally {
      child.kill('SIGTERM');
      await exited(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    assert.ok(!fs.existsSync(path.join(build, '.pids', String(child.pid))));
  });
});
