/**
 * Starts a real PostgreSQL server for tests: initdb into a temp dir, postgres on a free port of
 * 127.0.0.1, torn down with a fast shutdown. As root the server runs as the `postgres` system
 * user, since postgres refuses to run as root.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresServer {
  /** connection URL of a database created for the caller */
  url: string;
  /** a further fresh, empty database on the same server */
  newDatabase(): Promise<string>;

  stop(): Promise<void>;
}

interface RunAs {
  uid: number;
  gid: number;
}

interface Setup {
  bindir: string;
  runAs: RunAs | undefined;
}

const START_TIMEOUT_MS = 30_000;

/** Waits for its stdin to close (the test process is gone), then stops the server and removes its dir. */
const WATCHDOG_SCRIPT = [
  'read _',
  'kill -INT "$1" 2>/dev/null || exit 0',
  'while kill -0 "$1" 2>/dev/null; do sleep 0.1; done',
  'rm -rf "$2"',
].join('\n');

let databaseCounter = 0;

/** Why no PostgreSQL server can be started here, or undefined when one can. */
export function postgresUnavailable(): string | undefined {
  const setup = findSetup();
  return typeof setup === 'string' ? setup : undefined;
}

export async function startPostgres(): Promise<PostgresServer> {
  const setup = findSetup();
  if (typeof setup === 'string') throw new Error(setup);
  const { bindir, runAs } = setup;

  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const data = join(dir, 'data');
  try {
    await run(
      join(bindir, 'initdb'),
      ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--encoding=UTF8', '--locale=C'],
      dir,
      runAs,
    );
    let lastError: Error | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      try {
        return await launch(bindir, runAs, dir, data, port);
      } catch (err) {
        // another process may have taken the port between probing and binding it
        lastError = err instanceof Error ? err : new Error(String(err));
      }
    }
    throw lastError ?? new Error('postgres did not start');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function launch(bindir: string, runAs: RunAs | undefined, dir: string, data: string, port: number): Promise<PostgresServer> {
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'];
  for (const setting of ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=200']) args.push('-c', setting);
  const child = spawn(join(bindir, 'postgres'), args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(runAs ?? {}),
  });
  let log = '';
  const keep = (chunk: Buffer): void => {
    log = (log + chunk.toString()).slice(-8192);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // a test process that ends without its teardown must not leave a server behind: on a normal
  // exit this handler stops it, and when the process is killed the watchdog sees its pipe close
  const onExit = (): void => {
    child.kill('SIGQUIT');
  };
  process.once('exit', onExit);
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'svc-pg-watchdog', String(child.pid), dir], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.on('error', () => undefined);
  const release = (): void => {
    process.removeListener('exit', onExit);
    watchdog.kill('SIGKILL');
  };

  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await waitUntilReady(adminUrl, child, () => log);
  } catch (err) {
    release();
    await stopChild(child, exited);
    throw err;
  }

  let stopped = false;
  const newDatabase = async (): Promise<string> => {
    const name = `svc_test_${process.pid}_${++databaseCounter}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return `postgres://postgres@127.0.0.1:${port}/${name}`;
  };
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    release();
    await stopChild(child, exited);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    return { url: await newDatabase(), newDatabase, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitUntilReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`postgres exited during startup:\n${log()}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${START_TIMEOUT_MS} ms:\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** SIGINT is postgres' fast shutdown: clients are disconnected, the server exits cleanly. */
async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function run(file: string, args: string[], cwd: string, runAs: RunAs | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(runAs ?? {}) });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${file} exited with ${code}:\n${output}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function findSetup(): Setup | string {
  const bindir = findBindir();
  if (!bindir) {
    return 'no postgresql server binaries found (tried $SVC_TEST_POSTGRES_BINDIR, pg_config --bindir, /usr/lib/postgresql/*/bin)';
  }
  if (process.getuid?.() !== 0) return { bindir, runAs: undefined };
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { bindir, runAs: { uid, gid } };
  } catch {
    return 'running as root, and postgres refuses root: no postgres system user to run it as';
  }
}

function findBindir(): string | undefined {
  // an explicit choice (e.g. one of several installed versions) is the only candidate
  const chosen = process.env.SVC_TEST_POSTGRES_BINDIR;
  if (chosen) return existsSync(join(chosen, 'initdb')) && existsSync(join(chosen, 'postgres')) ? chosen : undefined;
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // no pg_config on the PATH: fall back to the Debian layout
  }
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(join(root, v, 'bin'));
  }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
}
