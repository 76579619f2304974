/**
 * A small keep-alive HTTP client: one request in, status, whole body and wall-clock time out.
 * Time runs from the call until the last body byte, what a client of the service waits.
 */
import http from 'node:http';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  /** path with query string, starting with `/` */
  path: string;
  body?: Buffer | string;
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
}

export interface HttpResponse {
  status: number;
  body: Buffer;
  elapsedMs: number;
}

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(baseUrl: string, maxSockets: number) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  request(req: HttpRequest, timeoutMs = 600_000): Promise<HttpResponse> {
    const started = performance.now();
    const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    return new Promise((resolve, reject) => {
      const r = http.request(
        {
          agent: this.agent,
          hostname: this.base.hostname,
          port: this.base.port,
          method: req.method,
          path: req.path,
          headers: {
            ...req.headers,
            ...(body ? { 'content-type': req.contentType ?? 'application/json', 'content-length': body.length } : {}),
          },
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), elapsedMs: performance.now() - started }));
          res.on('error', reject);
        },
      );
      r.on('timeout', () => r.destroy(new Error(`${req.method} ${req.path} took longer than ${timeoutMs} ms`)));
      r.on('error', reject);
      r.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Parses a JSON response body, naming the request when it is not JSON. */
export function jsonBody(res: HttpResponse, what: string): unknown {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new Error(`${what}: answer is not JSON (status ${res.status}): ${res.body.subarray(0, 200).toString('utf8')}`);
  }
}
