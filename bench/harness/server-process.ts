/**
 * Runs the service as a child process the way a user does (`node dist/src/main.js serve`),
 * waits for its "listening" log line, keeps its output in a log file, and stops it with SIGTERM
 * (which flushes) so that what is on disk afterwards is the flushed state.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

export interface ServerOptions {
  /** the repository root holding dist/src/main.js */
  repoRoot: string;
  dataDir: string;
  /** 0 lets the service pick a free port; the log line tells which */
  port: number;
  logFile: string;
  /** extra node flags, e.g. --cpu-prof */
  nodeArgs: readonly string[];
  env: Readonly<Record<string, string>>;
  startTimeoutMs: number;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerHandle {
  pid: number;
  url: string;
  /** sends SIGTERM and waits; SIGKILL after timeoutMs. Resolves with how it ended. */
  stop(timeoutMs: number): Promise<ServerExit & { stopMs: number; killed: boolean }>;
  running(): boolean;
  /** how the process ended, waiting up to waitMs for it; undefined while it runs */
  exit(waitMs: number): Promise<ServerExit | undefined>;
}

/** Error and fatal entries (pino level 50 and above) of a JSON-lines server log. */
export function serverLogErrors(logFile: string): { count: number; first?: string } {
  let count = 0;
  let first: string | undefined;
  let text = '';
  try {
    text = fs.readFileSync(logFile, 'utf8');
  } catch {
    return { count };
  }
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: unknown; msg?: unknown; err?: { message?: unknown } };
      if (typeof entry.level !== 'number' || entry.level < 50) continue;
      count++;
      first ??= [entry.msg, entry.err?.message].filter((v) => typeof v === 'string').join(': ');
    } catch {
      // a non-JSON line: output of node itself, not the logger
    }
  }
  return { count, first };
}

export function serverEntry(repoRoot: string): string {
  return path.join(repoRoot, 'dist', 'src', 'main.js');
}

export async function startServer(opts: ServerOptions): Promise<ServerHandle> {
  const entry = serverEntry(opts.repoRoot);
  if (!fs.existsSync(entry)) throw new Error(`${entry} does not exist: build first (npx tsc -p .)`);
  const log = fs.createWriteStream(opts.logFile);
  const child = spawn(
    process.execPath,
    [...opts.nodeArgs, entry, 'serve', '--port', String(opts.port), '--data-dir', opts.dataDir],
    { cwd: path.dirname(opts.logFile), env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let exit: ServerExit | undefined;
  const exited = new Promise<ServerExit>((resolve) =>
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    }),
  );
  child.stderr!.pipe(log, { end: false });

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not report listening within ${opts.startTimeoutMs} ms; see ${opts.logFile}`));
    }, opts.startTimeoutMs);
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      log.write(`${line}\n`);
      const found = listeningUrl(line);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`the service exited before listening (code ${e.code}, signal ${e.signal}); see ${opts.logFile}:\n${tail(opts.logFile)}`));
    });
  });

  return {
    pid: child.pid!,
    url,
    running: () => exit === undefined,
    exit: (waitMs) => Promise.race([exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), waitMs).unref())]),
    stop: (timeoutMs) => stopChild(child, exited, timeoutMs).finally(() => log.end()),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<ServerExit>, timeoutMs: number) {
  const started = performance.now();
  child.kill('SIGTERM');
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const e = await exited;
  clearTimeout(timer);
  return { ...e, stopMs: performance.now() - started, killed };
}

function listeningUrl(line: string): string | undefined {
  if (!line.includes('svc is listening')) return undefined;
  try {
    const entry = JSON.parse(line) as { url?: unknown };
    return typeof entry.url === 'string' ? entry.url : undefined;
  } catch {
    return undefined;
  }
}

export function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-20).map((l) => (l.length > 600 ? `${l.slice(0, 600)}...` : l)).join('\n');
  } catch {
    return '';
  }
}
