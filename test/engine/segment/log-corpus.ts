/**
 * Deterministic generator of realistic log documents (access logs, application logs, key=value
 * logs, about 200 bytes each) for segment tests and size measurements.
 */
import type { IndexedDocument, IndexedField } from '../../../src/engine/document/indexed-document.js';

/** xorshift32: reproducible across runs so that failures can be replayed */
export function makeRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const HOSTS = ['web-01', 'web-02', 'web-03', 'api-01', 'api-02', 'worker-1', 'worker-2', 'db-proxy'];
const SERVICES = ['checkout', 'auth', 'search', 'billing', 'inventory', 'gateway'];
const LEVELS = ['info', 'info', 'info', 'info', 'warn', 'error', 'debug'];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'];
const PATHS = ['/api/v1/users', '/api/v1/orders', '/api/v2/search', '/health', '/static/app.js', '/login', '/api/v1/cart/items'];
const STATUSES = [200, 200, 200, 200, 201, 204, 301, 304, 400, 401, 403, 404, 500, 502, 503];
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
  'curl/8.4.0',
  'Go-http-client/1.1',
  'python-requests/2.31.0',
];
const WORDS = ['order', 'payment', 'user', 'session', 'cache', 'retry', 'timeout', 'connection', 'queue', 'job',
  'invoice', 'token', 'refresh', 'upstream', 'backend', 'failed', 'completed', 'started', 'accepted', 'rejected'];
const CLASSES = ['c.e.OrderService', 'c.e.PaymentGateway', 'c.e.AuthFilter', 'c.e.CacheLoader', 'c.e.JobRunner'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

function hex(rnd: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rnd() * 16)];
  return s;
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

export interface CorpusOptions {
  seed?: number;
  startTs?: number;
  startLid?: number;
  startId?: bigint;
  /**
   * Adds fields that exercise more of a segment: a unique keyword per doc (`trace`), a
   * multi-valued keyword (`tags`), a date, a sparse long with big values and a multi-valued text.
   */
  rich?: boolean;
}

/** Generates `count` documents with increasing `_ts`, `_lid` and `_id`. */
export function generateLogs(count: number, options: CorpusOptions = {}): IndexedDocument[] {
  const rnd = makeRandom(options.seed ?? 42);
  let ts = options.startTs ?? 1_700_000_000_000;
  let lid = options.startLid ?? 1;
  let id = options.startId ?? 7_100_000_000_000_000_000n;
  const docs: IndexedDocument[] = [];
  for (let i = 0; i < count; i++) {
    ts += Math.floor(rnd() * 40);
    id += BigInt(1 + Math.floor(rnd() * 1000));
    const host = pick(rnd, HOSTS);
    const kind = rnd();
    const fields: IndexedField[] = [];
    const extra: Record<string, unknown> = {};
    let line: string;
    const d = new Date(ts);
    if (kind < 0.4) {
      const status = pick(rnd, STATUSES);
      const bytes = Math.floor(rnd() * 50000);
      const ip = `10.${Math.floor(rnd() * 4)}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}`;
      const path = `${pick(rnd, PATHS)}${rnd() < 0.5 ? `/${Math.floor(rnd() * 100000)}` : ''}`;
      line = `${ip} - - [${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000] "${pick(rnd, METHODS)} ${path} HTTP/1.1" ${status} ${bytes} "-" "${pick(rnd, AGENTS)}"`;
      extra.status = status;
      fields.push({ name: 'status', type: 'long', values: [status] });
    } else if (kind < 0.75) {
      const level = pick(rnd, LEVELS);
      line = `${d.toISOString()} ${level.toUpperCase()} [${pick(rnd, ['main', 'worker-3', 'pool-2-thread-7', 'scheduler'])}] ${pick(rnd, CLASSES)} - ${pick(rnd, WORDS)} ${hex(rnd, 8)} ${pick(rnd, WORDS)} in ${Math.floor(rnd() * 900)}ms for user ${Math.floor(rnd() * 10000)}`;
      extra.level = level;
      fields.push({ name: 'level', type: 'keyword', values: [level] });
    } else {
      const dur = Math.round(rnd() * 5000) / 100;
      line = `level=${pick(rnd, LEVELS)} caller=${pick(rnd, ['main.go', 'server.go', 'handler.go'])}:${Math.floor(rnd() * 400)} msg="${pick(rnd, WORDS)} ${pick(rnd, WORDS)}" trace_id=${hex(rnd, 16)} duration=${dur}ms`;
      extra.duration_ms = dur;
      extra.ok = rnd() < 0.9;
      fields.push({ name: 'duration_ms', type: 'double', values: [dur] });
      fields.push({ name: 'ok', type: 'boolean', values: [extra.ok as boolean] });
    }
    if (options.rich) {
      const trace = hex(rnd, 12);
      extra.trace = trace;
      fields.push({ name: 'trace', type: 'keyword', values: [trace] });
      const tags = [pick(rnd, WORDS), pick(rnd, WORDS), pick(rnd, WORDS)].slice(0, 1 + Math.floor(rnd() * 3));
      extra.tags = tags;
      fields.push({ name: 'tags', type: 'keyword', values: tags });
      extra.seen = ts - Math.floor(rnd() * 86_400_000);
      fields.push({ name: 'seen', type: 'date', values: [extra.seen as number] });
      if (rnd() < 0.1) {
        extra.big = Math.floor(rnd() * 2 ** 52) * (rnd() < 0.5 ? -1 : 1);
        fields.push({ name: 'big', type: 'long', values: [extra.big as number] });
      }
      if (rnd() < 0.05) {
        const notes = [`${pick(rnd, WORDS)} ${pick(rnd, WORDS)}`, `${pick(rnd, WORDS)} ${pick(rnd, WORDS)} ${pick(rnd, WORDS)}`];
        extra.notes = notes;
        fields.push({ name: 'notes', type: 'text', values: notes });
      }
    }
    const service = pick(rnd, SERVICES);
    fields.unshift({ name: '_line', type: 'text', values: [line] }, { name: 'host', type: 'keyword', values: [host] },
      { name: 'service', type: 'keyword', values: [service] });
    const source = JSON.stringify({ _line: line, host, service, ...extra, _ts: ts, _lid: lid });
    docs.push({ id, lid, ts, source, fields });
    lid++;
  }
  return docs;
}
