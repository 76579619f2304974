/**
 * Calls from one process of the cluster to another over HTTP, with the cluster secret in its
 * own header (see auth/cluster-secret.ts). A process that cannot be reached is a 503 for the
 * caller: the request may be retried once the placement moved or the node came back.
 */
import { CLUSTER_SECRET_HEADER } from '../auth/index.js';
import { IndexNotHereError, ServiceUnavailableError, SvcError } from '../common/index.js';


export interface InternalResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface InternalRequest {
  method?: string;
  body?: Buffer | string;
  headers?: Record<string, string>;
  /** give up after this long (a 503: the answer is unknown) */
  timeoutMs?: number;
}

export class InternalClient {
  constructor(private readonly secret: string | undefined) {}

  async call(baseUrl: string, path: string, req: InternalRequest = {}): Promise<InternalResponse> {
    const headers: Record<string, string> = { ...req.headers };
    if (this.secret !== undefined) headers[CLUSTER_SECRET_HEADER] = this.secret;
    let res: Response;
    try {
      res = await fetch(baseUrl + path, {
        method: req.method ?? 'GET',
        headers,
        body: req.body,
        ...(req.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(req.timeoutMs) }),
      });
    } catch (err) {
      throw new ServiceUnavailableError(`node at [${baseUrl}] could not be reached: ${(err as Error).cause ?? (err as Error).message}`);
    }
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  /** POSTs JSON and parses the JSON answer; an error answer is thrown as the error it renders. */
  async json<T>(baseUrl: string, path: string, body?: unknown, timeoutMs?: number): Promise<T> {
    const res = await this.call(baseUrl, path, {
      method: body === undefined ? 'GET' : 'POST',
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const parsed = JSON.parse(res.body.toString('utf8')) as unknown;
    if (res.status >= 300) throw remoteError(res.status, parsed);
    return parsed as T;
  }
}

/** The error another node answered with, rebuilt so that it renders here as it rendered there. */
export function remoteError(status: number, body: unknown): SvcError {
  const error = (body as { error?: { type?: string; reason?: string } & Record<string, unknown> } | null)?.error;
  if (error === undefined || typeof error !== 'object') return new SvcError('exception', status, `a node of the cluster answered ${status}`);
  const { type, reason, root_cause: _rootCause, ...details } = error;
  return new SvcError(type ?? 'exception', status, reason ?? `a node of the cluster answered ${status}`, details);
}

/**
 * Whether an answer is a refusal of a request (or a bulk item) a cache node made before applying
 * any of it (see IndexNotHereError): sending it again, once the placements were read again,
 * cannot write anything twice. A request whose answer was lost (the node died, the connection
 * broke) is not one: its outcome is unknown.
 */
export function notApplied(status: number, type: string | undefined): boolean {
  return status === 503 && type === IndexNotHereError.TYPE;
}
