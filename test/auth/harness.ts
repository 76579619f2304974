/**
 * A real HTTP server for access-control tests: the service's fastify server with the auth hook,
 * the /v1 routes and a real SQLite metastore, plus a stand-in handler for every other endpoint
 * of the permission table. The stand-ins apply the index-level rules the data routes use, over
 * a fixed list of indexes, and answer with what they let through.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ENDPOINT_PERMISSIONS,
  RbacService,
  assertNamedIndicesPermitted,
  bulkItemForbidden,
  createAuditLog,
  matchesIndexPattern,
  permittedIndices,
  type AccessContext,
  type EndpointPermission,
  type IndexAction,
} from '../../src/auth/index.js';
import type { RbacConfig } from '../../src/config/index.js';
import { accessOf, installAuth, type AuthInstallation } from '../../src/http/auth-hook.js';
import { registerRbacRoutes } from '../../src/http/routes/rbac.js';
import { createServer } from '../../src/http/server.js';
import { bodyBuffer } from '../../src/http/request-body.js';
import { openMetastore, type Metastore } from '../../src/metastore/index.js';
import { createLogger } from '../../src/observability/index.js';

export const KNOWN_INDICES = ['logs-1', 'logs-2', 'metrics', 'secrets'];

export interface AuthServer {
  url: string;
  app: FastifyInstance;
  metastore: Metastore;
  installation: AuthInstallation;
  /** every log line written so far, parsed */
  logs: Array<Record<string, unknown>>;
  /** the raw log text, to search for secrets */
  logText(): string;
  close(): Promise<void>;
}

export interface AuthServerOptions {
  dataDir: string;
  rbac: RbacConfig;
  /** extra routes registered after the table's stand-ins */
  extraRoutes?: (app: FastifyInstance) => void;
}

export async function startAuthServer(opts: AuthServerOptions): Promise<AuthServer> {
  const logs: Array<Record<string, unknown>> = [];
  let raw = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw += chunk.toString();
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger('info', sink);
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const metastore = await openMetastore({ kind: 'sqlite', path: path.join(opts.dataDir, 'metastore.sqlite') });
  const app = createServer({ logger, maxBodyBytes: 1024 * 1024 });
  const service = new RbacService(metastore.rbac, { audit: createAuditLog(logger) });
  // one process with every role: internal routes are open only while RBAC is off, as in a node
  const cluster = { secret: undefined, openWithoutSecret: !opts.rbac.enabled };
  const installation = installAuth(app, { rbac: opts.rbac, records: service, logger, cluster });
  registerRbacRoutes(app, { service });
  registerStandIns(app);
  opts.extraRoutes?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    metastore,
    installation,
    logs,
    logText: () => raw,
    async close() {
      await app.close();
      await metastore.close();
    },
  };
}

function registerStandIns(app: FastifyInstance): void {
  // explicit HEAD rows first: fastify refuses a HEAD route after the GET that implies it
  const rows = [...ENDPOINT_PERMISSIONS].sort((a, b) => Number(b.method === 'HEAD') - Number(a.method === 'HEAD'));
  for (const row of rows) {
    if (app.hasRoute({ method: row.method, url: row.url })) continue;
    app.route({ method: row.method, url: row.url, handler: async (request, reply) => {
      void reply.header('x-stand-in', `${row.method} ${row.url}`);
      return standIn(row, request);
    } });
  }
}

function expand(access: AccessContext, action: IndexAction, expression: string | undefined): string[] {
  const parts = (expression ?? '_all').split(',').filter(Boolean);
  assertNamedIndicesPermitted(access, action, parts);
  const matched = KNOWN_INDICES.filter((index) => parts.some((p) => p === '_all' || matchesIndexPattern(p, index)));
  return permittedIndices(access, action, matched);
}

function standIn(row: EndpointPermission, request: FastifyRequest): Record<string, unknown> {
  const access = accessOf(request);
  const params = request.params as Record<string, string | undefined>;
  const out: Record<string, unknown> = { route: `${row.method} ${row.url}`, actor: access.principalLabel };
  if (row.url === '/_cat/indices') {
    out.indices = permittedIndices(access, 'read', KNOWN_INDICES);
  } else if (row.url.endsWith('/_bulk')) {
    out.items = bulkItems(access, bodyBuffer(request.body).toString('utf8'), params.index);
  } else if (row.requirement.kind === 'index') {
    out.indices = expand(access, row.requirement.action, params.index);
  }
  return out;
}

function bulkItems(access: AccessContext, body: string, pathIndex: string | undefined): Array<Record<string, unknown>> {
  const lines = body.split('\n').filter((l) => l.trim() !== '');
  const items: Array<Record<string, unknown>> = [];
  for (let i = 0; i < lines.length; i += 2) {
    const action = JSON.parse(lines[i]!) as { index?: { _index?: string } };
    const index = action.index?._index ?? pathIndex ?? '';
    const denied = bulkItemForbidden(access, index);
    items.push(denied ? { _index: index, status: denied.status, error: { type: denied.type, reason: denied.reason } } : { _index: index, status: 201 });
  }
  return items;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function call(
  url: string,
  init: { method?: string; credential?: string; body?: unknown; scheme?: string; contentType?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (init.credential !== undefined) headers.authorization = `${init.scheme ?? 'Bearer'} ${init.credential}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] = init.contentType ?? 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
