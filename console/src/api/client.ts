/** One fetch wrapper: the credential as a Bearer header, JSON in and out, errors as ApiError. */

/** An answer other than 2xx, with the Elasticsearch error body's type, reason and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(`${status} ${type}: ${reason}`);
  }

  /** 401: no credential or one the service does not accept */
  get unauthenticated(): boolean {
    return this.status === 401;
  }

  /** 403: a valid credential without the permission */
  get forbidden(): boolean {
    return this.status === 403;
  }
}

export interface Api {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
}

interface ErrorBody {
  error?: { type?: string; reason?: string; [key: string]: unknown } | string;
  status?: number;
}

async function toError(res: Response): Promise<ApiError> {
  let body: ErrorBody = {};
  try {
    body = (await res.json()) as ErrorBody;
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  const error = body.error;
  if (typeof error === 'object' && error !== null) {
    const { type, reason, root_cause: _rootCause, ...details } = error;
    return new ApiError(res.status, type ?? 'error', reason ?? res.statusText, details);
  }
  return new ApiError(res.status, 'error', typeof error === 'string' ? error : res.statusText);
}

/** A client for `credential` (none: the service runs without access control). */
export function api(credential: string | undefined): Api {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (credential !== undefined) headers.authorization = `Bearer ${credential}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    if (!res.ok) throw await toError(res);
    const text = await res.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body ?? {}),
    put: (path, body) => call('PUT', path, body ?? {}),
    del: (path) => call('DELETE', path),
  };
}
