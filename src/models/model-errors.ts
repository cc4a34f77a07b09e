import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  NoContentGeneratedError,
  NoOutputGeneratedError,
  RetryError,
  TypeValidationError,
} from 'ai';

export type UnsupportedModelReason =
  | 'invalid-model-spec'
  | 'unknown-provider'
  | 'missing-api-key'
  | 'missing-base-url'
  | 'invalid-base-url';

/** The configured model cannot be built: a configuration problem, found before any call. */
export class UnsupportedModelError extends Error {
  override readonly name = 'UnsupportedModelError';

  constructor(
    readonly reason: UnsupportedModelReason,
    message: string,
  ) {
    super(message);
  }
}

export type ModelRelayErrorKind =
  | 'upstream-status'
  | 'rate-limited'
  | 'unauthorized'
  | 'unreachable'
  | 'interrupted'
  | 'timeout'
  | 'aborted'
  | 'invalid-response'
  | 'no-content'
  | 'unknown';

/**
 * A model call failed upstream. `message` and `publicMessage` are short and safe to
 * show to end users and API clients; `detail` carries the raw upstream text (status,
 * response body, socket errors) and is meant for logs only, because it can contain
 * provider internals or echoes of the prompt.
 */
export class ModelRelayError extends Error {
  override readonly name = 'ModelRelayError';
  readonly kind: ModelRelayErrorKind;
  readonly publicMessage: string;
  readonly detail: string;
  readonly statusCode: number | undefined;
  /** Whether the same call might succeed later (rate limits, 5xx, network trouble). */
  readonly retryable: boolean;

  constructor(options: {
    kind: ModelRelayErrorKind;
    publicMessage: string;
    detail: string;
    statusCode?: number;
    retryable: boolean;
    cause?: unknown;
  }) {
    super(options.publicMessage, { cause: options.cause });
    this.kind = options.kind;
    this.publicMessage = options.publicMessage;
    this.detail = options.detail;
    this.statusCode = options.statusCode;
    this.retryable = options.retryable;
  }
}

const MAX_DETAIL_LENGTH = 2000;
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Turns whatever the AI SDK (or fetch underneath it) threw into a ModelRelayError. */
export function classify(error: unknown): ModelRelayError {
  if (error instanceof ModelRelayError) return error;
  const detail = describe(error);
  const make = (
    kind: ModelRelayErrorKind,
    publicMessage: string,
    retryable: boolean,
    statusCode?: number,
  ): ModelRelayError => new ModelRelayError({ kind, publicMessage, detail, retryable, statusCode, cause: error });

  // With maxRetries > 0 the SDK wraps the failures; the last one says what finally happened.
  if (RetryError.isInstance(error)) {
    return rewrap(classify(error.lastError), detail, error);
  }

  if (isNamedError(error, 'TimeoutError')) {
    return make('timeout', 'the model provider did not answer in time', true);
  }
  if (isNamedError(error, 'AbortError') || isNamedError(error, 'ResponseAborted')) {
    return make('aborted', 'the model call was cancelled', false);
  }

  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      return make('unreachable', 'could not reach the model provider', true);
    }
    if (status === 429) {
      return make('rate-limited', 'the model provider is rate limiting requests (429)', true, status);
    }
    if (status === 401 || status === 403) {
      return make('unauthorized', `the model provider rejected the credentials (${status})`, false, status);
    }
    if (status >= 200 && status < 300) {
      // The SDK reports a 2xx body it could not finish reading as an APICallError carrying
      // the 2xx status: either the connection died mid-body or the body was not valid.
      if (findNetworkCode(error) !== undefined || isTerminatedFetch(error)) {
        return make('interrupted', 'the connection to the model provider broke off', true, status);
      }
      return make('invalid-response', 'the model provider sent a response that could not be read', true, status);
    }
    if (isUnreadableStreamStart(error)) {
      return make('invalid-response', 'the model provider sent a response that could not be read', true);
    }
    return make('upstream-status', `the model provider answered ${status}`, status >= 500 || error.isRetryable, status);
  }

  if (JSONParseError.isInstance(error) || TypeValidationError.isInstance(error) || InvalidResponseDataError.isInstance(error)) {
    return make('invalid-response', 'the model provider sent a response that could not be read', true);
  }

  if (NoOutputGeneratedError.isInstance(error) && error.cause !== undefined) {
    const inner = classify(error.cause);
    if (inner.kind !== 'unknown') return rewrap(inner, detail, error);
  }
  if (EmptyResponseBodyError.isInstance(error) || NoContentGeneratedError.isInstance(error) || NoOutputGeneratedError.isInstance(error)) {
    return make('no-content', 'the model provider sent no answer', true);
  }

  const networkCode = findNetworkCode(error);
  if (networkCode === 'ECONNREFUSED' || networkCode === 'ENOTFOUND' || networkCode === 'EAI_AGAIN' || networkCode === 'EHOSTUNREACH' || networkCode === 'ENETUNREACH' || networkCode === 'UND_ERR_CONNECT_TIMEOUT') {
    return make('unreachable', 'could not reach the model provider', true);
  }
  if (networkCode !== undefined || isTerminatedFetch(error)) {
    return make('interrupted', 'the connection to the model provider broke off', true);
  }

  return make('unknown', 'the model call failed', false);
}

/** Keeps the inner classification but the outer error's full detail and identity. */
function rewrap(inner: ModelRelayError, detail: string, cause: unknown): ModelRelayError {
  return new ModelRelayError({
    kind: inner.kind,
    publicMessage: inner.publicMessage,
    detail,
    retryable: inner.retryable,
    statusCode: inner.statusCode,
    cause,
  });
}

function isNamedError(error: unknown, name: string): boolean {
  return (error instanceof Error || (typeof DOMException !== 'undefined' && error instanceof DOMException)) && error.name === name;
}

/** undici reports a body cut mid-way as `TypeError: terminated` caused by a SocketError. */
function isTerminatedFetch(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof TypeError && current.message === 'terminated') return true;
    current = current.cause;
  }
  return false;
}

/**
 * The Anthropic provider reads the first stream event before returning and, if that event
 * is an error, throws an APICallError with a made-up status 500. When the "error" was only
 * a frame it could not parse, the upstream did not really answer 500.
 */
function isUnreadableStreamStart(error: APICallError): boolean {
  const contentType = error.responseHeaders?.['content-type'] ?? '';
  if (!contentType.includes('text/event-stream') || error.responseBody === undefined) return false;
  try {
    const body = JSON.parse(error.responseBody) as { name?: unknown };
    return body.name === 'AI_JSONParseError' || body.name === 'AI_TypeValidationError';
  } catch {
    return false;
  }
}

function findNetworkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      let line = `${current.name}: ${current.message}`;
      if (APICallError.isInstance(current)) {
        line += ` [url=${current.url} status=${current.statusCode ?? 'none'}]`;
        if (current.responseBody !== undefined) line += ` body=${current.responseBody}`;
      }
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string') line += ` code=${code}`;
      parts.push(line);
      current = current.cause;
    } else {
      parts.push(typeof current === 'string' ? current : safeJson(current));
      break;
    }
  }
  const text = parts.join(' <- caused by ');
  return text.length > MAX_DETAIL_LENGTH ? `${text.slice(0, MAX_DETAIL_LENGTH)}…` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
