import { ParleyError, abortedError, networkError } from './errors.js';
import { withRetry, type RetryPolicy } from './retry.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

/**
 * HTTP plumbing shared by every call: URL building, credentials, the envelope,
 * errors as ParleyError, and the retry policy of section 7.
 */
export class Transport {
  private readonly root: string;

  constructor(
    baseUrl: string,
    private readonly credentials: Record<string, string>,
    private readonly fetchImpl: FetchLike,
    readonly retry: RetryPolicy,
  ) {
    this.root = `${baseUrl.replace(/\/+$/, '')}/api/v1`;
  }

  url(path: string, query?: RequestOptions['query']): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
    const text = search.toString();
    return `${this.root}${path}${text === '' ? '' : `?${text}`}`;
  }

  /** A JSON route: `data` of the envelope, retried per the policy. */
  json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return withRetry(this.retry, () => this.jsonOnce<T>(method, path, options), options.signal);
  }

  async jsonOnce<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.fetch(method, path, options);
    const requestId = response.headers.get('x-request-id') ?? undefined;
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw options.signal?.aborted ? abortedError() : networkError(error);
    }
    if (!response.ok) throw errorFromBody(response.status, text, requestId);
    const envelope = parseJson(text);
    if (!isRecord(envelope) || envelope['success'] !== true || !('data' in envelope)) {
      throw new ParleyError({ code: 'INVALID_RESPONSE', status: response.status, message: 'the response is not the success envelope', requestId });
    }
    return envelope['data'] as T;
  }

  /** Sends one request and returns the response as it is; only network failures throw. */
  async fetch(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.credentials, ...options.headers };
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) {
      init.body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    if (options.signal) init.signal = options.signal;
    try {
      return await this.fetchImpl(this.url(path, options.query), init);
    } catch (error) {
      throw options.signal?.aborted ? abortedError() : networkError(error);
    }
  }

  /** Turns a failed response into its ParleyError (reading the body). */
  async failure(response: Response): Promise<ParleyError> {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const text = await response.text().catch(() => '');
    return errorFromBody(response.status, text, requestId);
  }
}

/**
 * The envelope's code and message; a body that is not the envelope (a proxy's 502/503/504
 * page) counts as a network-level failure, since the request never reached Parley.
 */
export function errorFromBody(status: number, text: string, requestId: string | undefined): ParleyError {
  const body = parseJson(text);
  const error = isRecord(body) ? body['error'] : undefined;
  if (isRecord(error) && typeof error['code'] === 'string') {
    return new ParleyError({ code: error['code'], status, message: typeof error['message'] === 'string' ? error['message'] : error['code'], requestId });
  }
  const gateway = status === 502 || status === 503 || status === 504;
  return new ParleyError({
    code: gateway ? 'NETWORK_ERROR' : 'INVALID_RESPONSE',
    status,
    message: `HTTP ${status} without an error envelope`,
    requestId,
  });
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
