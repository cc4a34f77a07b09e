import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/*
 * The `fetch` Parley hands to model providers: Node's own http client behind the
 * fetch signature, for the one kind of request providers make (a JSON or text body,
 * answered with JSON or an event stream). Measured on the model-call benchmark,
 * undici's fetch spent more CPU per call than the rest of a turn: it copies every
 * request body (in case a redirect needs it resent), writes it through a web stream
 * in several socket writes, and allocates a great deal. Here the request goes out in
 * one write over a keep-alive agent; the answer is a standard Response whose body
 * streams as it arrives.
 *
 * Behaviour a caller can see, kept to what fetch does or made explicit:
 * - network failures reject with TypeError('fetch failed', { cause }), as fetch does,
 *   so the providers recognise them (cause.code: ECONNREFUSED, ECONNRESET, …);
 * - an abort rejects (or errors the body) with the signal's reason;
 * - gzip, deflate and br answers are decompressed;
 * - redirects are NOT followed: a model call carries credentials, and a base URL
 *   that redirects is a misconfiguration to fix, so the 3xx reaches the provider
 *   and becomes a relay error naming the status.
 * Bodies other than strings and bytes (forms, streams) go to the global fetch.
 */

// Idle connections are closed after 4 s (undici's default too), before servers typically drop
// them, so a reused connection is rarely one the server is closing. The timeout only closes
// idle sockets: on a socket in use it merely emits an event nobody acts on.
const agentOptions = { keepAlive: true, timeout: 4_000 };
const agents = {
  http: new HttpAgent(agentOptions),
  https: new HttpsAgent(agentOptions),
};

function headerRecord(headers: RequestInit["headers"]): OutgoingHttpHeaders {
  const record: OutgoingHttpHeaders = {};
  if (headers === undefined) return record;
  if (headers instanceof Headers || Array.isArray(headers)) {
    for (const [name, value] of headers instanceof Headers ? headers.entries() : headers) record[name.toLowerCase()] = value;
    return record;
  }
  for (const name in headers) {
    const value: string | readonly string[] | undefined = headers[name];
    if (value !== undefined) record[name.toLowerCase()] = typeof value === 'string' ? value : [...value];
  }
  return record;
}

function responseHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  return headers;
}

function decoded(message: IncomingMessage): Readable {
  switch (message.headers['content-encoding']?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return message.pipe(createGunzip()).once('error', (error) => message.destroy(error));
    case 'deflate':
      return message.pipe(createInflate()).once('error', (error) => message.destroy(error));
    case 'br':
      return message.pipe(createBrotliDecompress()).once('error', (error) => message.destroy(error));
    default:
      return message;
  }
}

const noBodyStatuses = new Set([101, 204, 205, 304]);

export const modelFetch: typeof fetch = (input, init = {}) => {
  const body = init.body;
  const simpleBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (!simpleBody || input instanceof Request) return fetch(input, { ...init, redirect: 'error' });
  const url = new URL(input instanceof URL ? input.href : input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);

  return new Promise<Response>((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const headers = headerRecord(init.headers);
    if (body !== undefined && body !== null) headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    const secure = url.protocol === 'https:';
    const request = (secure ? httpsRequest : httpRequest)(url, { method: init.method ?? 'GET', headers, agent: secure ? agents.https : agents.http });
    let settled = false;
    let response: IncomingMessage | undefined;
    // As with fetch, an abort ends the call — or, once answered, the body — with the signal's reason.
    const onAbort = () => {
      const reason = signal?.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
      if (response) response.destroy(reason);
      request.destroy(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const release = () => signal?.removeEventListener('abort', onAbort);

    request.once('response', (message) => {
      settled = true;
      response = message;
      const status = message.statusCode ?? 0;
      const stream = noBodyStatuses.has(status) ? null : decoded(message);
      message.once('close', release);
      if (stream === null) message.resume();
      try {
        // Readable.toWeb: the body streams as it arrives, and errors (reset, abort) reach its reader.
        resolve(new Response(stream === null ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>), { status, statusText: message.statusMessage ?? '', headers: responseHeaders(message) }));
      } catch (error) {
        // A status or header the fetch API refuses (e.g. a control character in a value) is an unreadable answer, not a crash.
        message.destroy();
        reject(new TypeError('fetch failed', { cause: error }));
      }
    });
    request.once('error', (error) => {
      release();
      if (settled) return;
      settled = true;
      if (signal?.aborted) reject(signal.reason);
      else reject(new TypeError('fetch failed', { cause: error }));
    });
    request.end(body ?? undefined);
  });
};
