/**
 * The processes of a test cluster: each `svc serve` gets a data directory of its own, and all
 * are killed and their directories removed when the test file ends (`stop`, from `after`).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, type TestContext } from 'node:test';
import { exited, spawnNode, tempDir, waitReady, type ChildNode } from '../../support/node.js';
import { postgresUnavailable, startPostgres, type PostgresServer } from '../../support/postgres.js';

export class TestProcesses {
  private readonly children: ChildNode[] = [];
  private readonly dirs: string[] = [];

  /** Starts a process named `id` (`SVC_NODE_ID`, `SVC_NODE_NAME`); `ready`: waits for its readiness probe. */
  async start(id: string, env: Record<string, string>, ready = true): Promise<ChildNode & { dir: string }> {
    const dir = tempDir(`svc-${id}-`);
    this.dirs.push(dir);
    const node = await spawnNode(dir, { SVC_NODE_ID: id, SVC_NODE_NAME: id, SVC_LOG_LEVEL: 'info', ...env });
    this.children.push(node);
    if (ready) await waitReady(node.url);
    return { ...node, dir };
  }

  /** A directory removed with the processes' own (a volume they share). */
  dir(prefix: string): string {
    const dir = tempDir(prefix);
    this.dirs.push(dir);
    return dir;
  }

  async stop(): Promise<void> {
    for (const c of this.children) {
      if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
      await exited(c.child);
    }
    for (const dir of this.dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Polls `probe` every 100 ms until it gives a value; fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A test file's cluster on one PostgreSQL server, started before its tests; processes and server
 * are stopped after them. `metastore(t)` gives a fresh database, or skips the test when
 * PostgreSQL is missing (a failure when CI is set).
 */
export function clusterOnPostgres(): { processes: TestProcesses; metastore(t: TestContext): Promise<string | undefined> } {
  const unavailable = postgresUnavailable();
  let server: PostgresServer | undefined;
  const processes = new TestProcesses();
  before(async () => {
    if (unavailable === undefined) server = await startPostgres();
  });
  after(async () => {
    await processes.stop();
    await server?.stop();
  });
  const metastore = async (t: TestContext): Promise<string | undefined> => {
    if (server === undefined) {
      if (process.env.CI) assert.fail(`postgresql is required when CI is set: ${unavailable}`);
      t.skip(`postgresql not available: ${unavailable}`);
      return undefined;
    }
    return server.newDatabase();
  };
  return { processes, metastore };
}
