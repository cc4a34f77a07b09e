/**
 * Every failure the client reports. `code` is the server's error code (section 7
 * of the interface), or one of the client's own:
 * - NETWORK_ERROR: no HTTP response (connection refused, reset, body cut short);
 * - INVALID_RESPONSE: a response that is not the JSON envelope;
 * - ABORTED: the caller's AbortSignal fired.
 */
export class ParleyError extends Error {
  override name = 'ParleyError';
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  readonly code: string;
  /** The X-Request-Id of the failed response, to quote when asking for help. */
  readonly requestId: string | undefined;

  constructor(init: { code: string; status: number; message: string; requestId?: string | undefined; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
  }
}

/** Codes the interface says to retry with backoff (section 7); nothing else is retried. */
const retryableCodes: ReadonlySet<string> = new Set(['NETWORK_ERROR', 'AI_RELAY_ERROR', 'RECOVER_PENDING_FAILED']);

/**
 * Section 7: retry network failures, 502 AI_RELAY_ERROR and 500 RECOVER_PENDING_FAILED;
 * never 401, 404, 409 or 422 (nor anything else the table does not mark retryable).
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ParleyError)) return false;
  if ([401, 404, 409, 422].includes(error.status)) return false;
  return retryableCodes.has(error.code);
}

export function abortedError(): ParleyError {
  return new ParleyError({ code: 'ABORTED', status: 0, message: 'the request was aborted' });
}

export function networkError(cause: unknown): ParleyError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ParleyError({ code: 'NETWORK_ERROR', status: 0, message: `network failure: ${detail}`, cause });
}
