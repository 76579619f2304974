/**
 * The service laid out for a benchmark run: one process with every role (the embedded defaults:
 * SQLite and a local directory), or the roles split over processes on one PostgreSQL metastore
 * and an Azurite object store, with a coordinator, api processes, cache nodes sharing a
 * write-ahead-log volume, and a storage process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HttpClient, startServer, type ServerHandle } from '../harness/index.js';

export interface Layout {
  name: string;
  /** where clients send requests: every api process */
  apiUrls: string[];
  /** process ids of every service process, for CPU and memory figures */
  pids: number[];
  stop(): Promise<void>;
}

export interface SplitLayoutOptions {
  apis: number;
  caches: number;
  metastoreUrl: string;
  objectStoreUrl: string;
}

const SECRET = 'cluster-benchmark-secret';

async function startAll(repoRoot: string, workDir: string, procs: Array<{ id: string; env: Record<string, string> }>): Promise<Map<string, ServerHandle>> {
  const handles = new Map<string, ServerHandle>();
  // one at a time: the coordinator first, so that the others find its lease
  for (const p of procs) {
    const dir = path.join(workDir, p.id);
    fs.mkdirSync(dir, { recursive: true });
    const handle = await startServer({
      repoRoot,
      dataDir: path.join(dir, 'data'),
      port: 0,
      logFile: path.join(dir, 'server.log'),
      nodeArgs: [],
      env: { SVC_NODE_ID: p.id, SVC_NODE_NAME: p.id, ...p.env },
      startTimeoutMs: 60_000,
    });
    handles.set(p.id, handle);
  }
  return handles;
}

function layoutOf(name: string, handles: Map<string, ServerHandle>, apiIds: readonly string[]): Layout {
  return {
    name,
    apiUrls: apiIds.map((id) => handles.get(id)!.url),
    pids: [...handles.values()].map((h) => h.pid),
    async stop() {
      // the api processes first, so that nothing routes to a stopped cache node
      const order = [...handles.keys()].sort((a, b) => Number(!apiIds.includes(a)) - Number(!apiIds.includes(b)));
      for (const id of order) await handles.get(id)!.stop(60_000);
    },
  };
}

export async function startSingleLayout(repoRoot: string, workDir: string): Promise<Layout> {
  const handles = await startAll(repoRoot, workDir, [{ id: 'single', env: {} }]);
  return layoutOf('1 process', handles, ['single']);
}

export async function startSplitLayout(repoRoot: string, workDir: string, opts: SplitLayoutOptions): Promise<Layout> {
  const sharedWal = path.join(workDir, 'shared-wal');
  fs.mkdirSync(sharedWal, { recursive: true });
  const cluster = {
    SVC_METASTORE_URL: opts.metastoreUrl,
    SVC_OBJECT_STORE: opts.objectStoreUrl,
    SVC_SHARED_WAL_DIR: sharedWal,
    SVC_CLUSTER_SECRET: SECRET,
  };
  const procs = [{ id: 'coordinator', env: { ...cluster, SVC_ROLES: 'coordinator' } }];
  const apiIds: string[] = [];
  for (let i = 1; i <= opts.apis; i++) {
    apiIds.push(`api-${i}`);
    procs.push({ id: `api-${i}`, env: { ...cluster, SVC_ROLES: 'api' } });
  }
  for (let i = 1; i <= opts.caches; i++) procs.push({ id: `cache-${i}`, env: { ...cluster, SVC_ROLES: 'cache' } });
  procs.push({ id: 'storage', env: { ...cluster, SVC_ROLES: 'storage' } });
  const handles = await startAll(repoRoot, workDir, procs);
  await waitLive(handles.get('coordinator')!.url, procs.length);
  const layout = layoutOf(`${procs.length} processes (${opts.apis} api, ${opts.caches} cache)`, handles, apiIds);
  return layout;
}

/** Waits until the coordinator sees every process live. */
async function waitLive(coordinatorUrl: string, processes: number): Promise<void> {
  const client = new HttpClient(coordinatorUrl, 1);
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await client.request({ method: 'GET', path: '/_internal/cluster', headers: { 'x-svc-cluster-secret': SECRET } });
      if (res.status === 200) {
        const view = JSON.parse(res.body.toString('utf8')) as { nodes: Array<{ live: boolean }> };
        if (view.nodes.filter((n) => n.live).length >= processes) return;
      }
      if (Date.now() > deadline) throw new Error(`the coordinator did not see ${processes} live processes within 60 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    client.close();
  }
}
