import type { Session } from './session-store';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener = () => undefined;

/** The app shell registers what to do when the server says the token is no longer good. */
export function setUnauthorizedListener(listener: UnauthorizedListener): void {
  onUnauthorized = listener;
}

export function notifyUnauthorized(): void {
  onUnauthorized();
}

export function authHeaders(session: Pick<Session, 'token' | 'workspaceId'>): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}` };
  if (session.workspaceId) headers['x-workspace-id'] = session.workspaceId;
  return headers;
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: { code: string; message: string };
}

/** One call to /api/v1: unwraps the envelope, throws ApiError, and signs out on 401. */
export async function request<T>(session: Pick<Session, 'token' | 'workspaceId'> | null, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = session ? authHeaders(session) : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The server cannot be reached. Check your connection and try again.');
  }
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  if (response.ok && envelope?.success) return envelope.data as T;
  const code = envelope?.error?.code ?? 'HTTP_ERROR';
  const message = envelope?.error?.message ?? `The server answered ${response.status}.`;
  if (response.status === 401 && session) notifyUnauthorized();
  throw new ApiError(response.status, code, message);
}

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** True when the server has no such route (an older server, or a feature not merged yet). */
export function isMissingRoute(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.message.startsWith('route ');
}
