/** Test support: a real svc node on a loopback port, in this process or as a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/index.js';
import type { Engine, ReaderCacheBudget } from '../../src/engine/index.js';
import { startNode, type RunningNode } from '../../src/node/index.js';

export function tempDir(prefix = 'svc-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A node with the api role, so with the data path in it. */
export interface TestNode extends RunningNode {
  engine: Engine;
  readerCache: ReaderCacheBudget;
  dataDir: string;
  /** stops the node and removes its data directory */
  destroy(): Promise<void>;
}

export async function startTestNode(env: Record<string, string> = {}, dataDir = tempDir()): Promise<TestNode> {
  const config = loadConfig({ SVC_PORT: '0', SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'silent', ...env });
  const node = await startNode(config);
  const { engine, readerCache } = node;
  if (engine === undefined || readerCache === undefined) {
    await node.close();
    throw new Error('startTestNode starts a node with the api role');
  }
  return {
    ...node,
    engine,
    readerCache,
    dataDir,
    async destroy() {
      await node.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The compiled process entry (`dist/src/main.js`), found relative to this file in src or dist. */
export function mainScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../src/main.js'), path.resolve(here, '../../dist/src/main.js')];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`compiled main.js not found (run npm run build); looked in ${candidates.join(', ')}`);
  return found;
}

export interface ChildNode {
  child: ChildProcess;
  url: string;
  /** everything the child wrote to stdout so far (its JSON log lines) */
  output(): string;
}

/** Resolves when the child has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `svc serve` as a child process and resolves once it listens. */
export function spawnNode(dataDir: string, env: Record<string, string> = {}): Promise<ChildNode> {
  const child = spawn(process.execPath, [mainScript(), 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, SVC_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`node did not start in time: ${stderr}${buffered}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n')) {
        if (!line.includes('svc is listening')) continue;
        try {
          const { url } = JSON.parse(line) as { url: string };
          clearTimeout(timer);
          resolve({ child, url, output: () => buffered });
          return;
        } catch {
          // a partial line: wait for more output
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node exited with code ${code}: ${stderr}`));
    });
  });
}

/** Resolves once the node says it is ready (its write-ahead log replayed), polling readiness. */
export async function waitReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/health/readyz`);
    await res.arrayBuffer();
    if (res.status === 200) return;
    if (Date.now() > deadline) throw new Error(`node at ${url} not ready after ${timeoutMs} ms (last status ${res.status})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function request<T = Record<string, unknown>>(
  url: string,
  init: { method?: string; body?: string | Buffer | object; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | Buffer | undefined;
  if (init.body !== undefined) {
    if (typeof init.body === 'string' || Buffer.isBuffer(init.body)) body = init.body;
    else body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), body, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

/** NDJSON body for `_bulk` from alternating action and document objects. */
export function ndjson(lines: unknown[]): string {
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
}

export async function bulkIndex(url: string, index: string, docs: object[]): Promise<JsonResponse> {
  const lines: unknown[] = [];
  for (const doc of docs) lines.push({ index: { _index: index } }, doc);
  return request(`${url}/_bulk`, { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
}
