/** A response as the tests see it: status, headers and the parsed JSON body. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A tiny fetch wrapper over real HTTP. Paths are relative to /api/v1 unless
 * they start with "//" (then taken from the server root).
 */
export class ApiClient {
  constructor(readonly baseUrl: string, readonly headers: Record<string, string> = {}) {}

  with(headers: Record<string, string>): ApiClient {
    return new ApiClient(this.baseUrl, { ...this.headers, ...headers });
  }

  url(path: string): string {
    return path.startsWith('//') ? `${this.baseUrl}${path.slice(1)}` : `${this.baseUrl}/api/v1${path}`;
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...this.headers, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.url(path), init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: the test sees the raw text.
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, headers);
  }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, body, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }
}
