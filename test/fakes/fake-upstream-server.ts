import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * Shared lifecycle for the fake model providers: a real HTTP server on 127.0.0.1, a
 * queue of scripted replies, a record of every request, and the failure modes
 * (status, garbage, truncation, stalls, delays). Each wire protocol only supplies a
 * `FakeUpstreamDialect` that renders a scripted reply as its JSON body or SSE frames.
 */

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or `undefined` when the body was empty or not JSON. */
  body: unknown;
  rawBody: string;
}

export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
  /** Defaults to a per-request id such as `call_0_0` / `toolu_0_0`. */
  id?: string;
}

export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ScriptedReply {
  /** Assistant text; streamed word by word. */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Defaults to { inputTokens: 10, outputTokens: words of text + 1 per tool call }. */
  usage?: ScriptedUsage;
  /** Overrides the protocol's finish/stop reason. */
  finishReason?: string;
  /** Answer with this HTTP status (>= 400 means an error body). */
  status?: number;
  /** Error body for `status`; defaults to the protocol's error envelope. */
  body?: unknown;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** Answer 200 with a body that is not JSON (or an SSE frame that is not JSON). */
  garbage?: boolean;
  /** Send part of the response, then destroy the connection. */
  truncate?: boolean;
  /** Wait this long before answering at all. */
  delayMs?: number;
  /** Wait this long between streamed frames. */
  chunkDelayMs?: number;
  /** Send this many stream frames, then go silent with the socket left open. */
  stallAfterChunks?: number;
}

export type ReplyScript = ScriptedReply | ((request: RecordedRequest, index: number) => ScriptedReply);

export interface FakeUpstreamDialect {
  /** Paths answered by this protocol; anything else gets 404. */
  paths: readonly string[];
  isStreaming(body: unknown): boolean;
  renderJson(reply: ScriptedReply, context: RenderContext): unknown;
  /** Complete SSE frames (each ending in a blank line), in order. */
  renderStream(reply: ScriptedReply, context: RenderContext): string[];
  errorBody(status: number): unknown;
}

export interface RenderContext {
  request: RecordedRequest;
  /** Zero-based number of this request among those answered, for ids. */
  index: number;
  usage: ScriptedUsage;
}

export interface FakeUpstream {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`, the provider base URL. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Queue replies; each request takes the next one. */
  enqueue(...replies: ReplyScript[]): void;
  /** Reply used when the queue is empty (default: a 500 saying the script ran out). */
  setDefaultReply(reply: ReplyScript | undefined): void;
  lastRequest(): RecordedRequest;
  /** Forget recorded requests and queued replies. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(dialect: FakeUpstreamDialect): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const queue: ReplyScript[] = [];
  let defaultReply: ReplyScript | undefined;
  let answered = 0;
  let closed = false;
  const sockets = new Set<Socket>();
  const pendingWaits = new Set<() => void>();

  /** A sleep that close() cuts short, so no timer outlives the server. */
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        pendingWaits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      pendingWaits.add(done);
    });

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `fake upstream crashed: ${String(error)}` } }));
      } else {
        res.destroy();
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0] ?? '/',
      headers: req.headers,
      body: parseJson(rawBody),
      rawBody,
    };
    requests.push(recorded);

    if (recorded.method !== 'POST' || !dialect.paths.includes(recorded.path)) {
      sendJson(res, 404, { error: { message: `fake upstream: no route for ${recorded.method} ${recorded.path}` } });
      return;
    }

    const index = answered++;
    const script = queue.shift() ?? defaultReply;
    const reply: ScriptedReply =
      script === undefined
        ? { status: 500, body: { error: { message: 'fake upstream: no scripted reply left for this request' } } }
        : typeof script === 'function'
          ? script(recorded, index)
          : script;

    if (reply.delayMs !== undefined) await wait(reply.delayMs);
    if (closed || res.destroyed) return;

    const headers = reply.headers ?? {};
    if (reply.status !== undefined && reply.status >= 400) {
      sendJson(res, reply.status, reply.body ?? dialect.errorBody(reply.status), headers);
      return;
    }

    const context: RenderContext = { request: recorded, index, usage: reply.usage ?? defaultUsage(reply) };
    if (dialect.isStreaming(recorded.body)) {
      await sendStream(res, reply, context, headers);
    } else {
      sendWhole(res, reply, context, headers);
    }
  }

  function sendWhole(res: ServerResponse, reply: ScriptedReply, context: RenderContext, headers: Record<string, string>): void {
    const text = reply.garbage ? '<html><body>502 Bad Gateway (not JSON)</body></html>' : JSON.stringify(dialect.renderJson(reply, context));
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...headers });
    if (reply.truncate) {
      // Promise the whole body, deliver half: the client sees the connection die mid-body.
      res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      setImmediate(() => res.destroy());
      return;
    }
    res.end(text);
  }

  async function sendStream(res: ServerResponse, reply: ScriptedReply, context: RenderContext, headers: Record<string, string>): Promise<void> {
    const frames = reply.garbage ? ['data: {"this is": not json at all\n\n'] : dialect.renderStream(reply, context);
    res.writeHead(reply.status ?? 200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    res.flushHeaders();

    const cutAt = reply.truncate ? Math.max(1, Math.floor(frames.length / 2)) : frames.length;
    const stallAt = reply.stallAfterChunks ?? Number.POSITIVE_INFINITY;
    for (let i = 0; i < frames.length; i++) {
      if (closed || res.destroyed) return;
      if (i >= stallAt) return; // leave the response open and silent; close() destroys the socket
      const frame = frames[i] ?? '';
      if (i === cutAt) {
        res.write(frame.slice(0, Math.max(1, Math.floor(frame.length / 2))));
        setImmediate(() => res.destroy());
        return;
      }
      if (i > 0 && reply.chunkDelayMs !== undefined) await wait(reply.chunkDelayMs);
      if (closed || res.destroyed) return;
      res.write(frame);
    }
    if (reply.truncate) {
      setImmediate(() => res.destroy());
      return;
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    enqueue(...replies) {
      queue.push(...replies);
    },
    setDefaultReply(reply) {
      defaultReply = reply;
    },
    lastRequest() {
      const last = requests[requests.length - 1];
      if (last === undefined) throw new Error('fake upstream has received no request');
      return last;
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
      answered = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const done of [...pendingWaits]) done();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}

function defaultUsage(reply: ScriptedReply): ScriptedUsage {
  const words = (reply.text ?? '').split(/\s+/).filter((word) => word !== '').length;
  return { inputTokens: 10, outputTokens: words + (reply.toolCalls?.length ?? 0) };
}

/** Splits text into word-sized pieces that concatenate back to the exact text. */
export function wordPieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits a string into `count` roughly equal pieces (for streamed tool arguments). */
export function splitInPieces(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
