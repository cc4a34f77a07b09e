/**
 * The closed set of error codes and the one HTTP status each maps to.
 * The first six are the spec's (section 7); the rest are Parley's own and
 * documented in README.md ("Errors and auth").
 */
export const errorStatus = {
  VALIDATION_ERROR: 422,
  NOT_FOUND: 404,
  ESCALATION_RESOLVED: 409,
  RECOVER_PENDING_FAILED: 500,
  UNSUPPORTED_MODEL: 422,
  AI_RELAY_ERROR: 502,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  WRONG_SCOPE: 403,
  CONFLICT: 409,
  ESCALATION_CLAIMED: 409,
  ESCALATION_OPEN: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

/** The one error type of the service. Anything else that escapes becomes INTERNAL_ERROR. */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;

  constructor(readonly code: ErrorCode, message: string, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = errorStatus[code];
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);
export const validationError = (message: string): AppError => new AppError('VALIDATION_ERROR', message);
