import type { Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Past this many buffered bytes a client is too slow to keep: it is cut, not buffered for. */
const maxBufferedBytes = 1_048_576;

/** Open streams per HTTP server, so closing the app can end them (an open SSE response would hold close up). */
const openStreams = new WeakMap<Server, Set<SseStream>>();

export interface SseStreamOptions {
  /** Interval of `: ping` comment lines; 0 for none. */
  pingIntervalMs: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/**
 * The one SSE writer. It takes the response over from Fastify, writes
 * `data: <json>\n\n` frames (with an optional `id:`), keeps the connection alive
 * with comment pings, and cleans up exactly once when either side closes.
 * A client that stops reading costs its socket and at most maxBufferedBytes.
 */
export class SseStream {
  /** Ends every open stream of this app when it starts closing. Called once by buildApp. */
  static endAllOnClose(app: FastifyInstance): void {
    app.addHook('preClose', async () => {
      const streams = openStreams.get(app.server);
      for (const stream of [...(streams ?? [])]) stream.end();
    });
  }

  private closed = false;
  private readonly closeHandlers: Array<() => void> = [];
  private readonly ping: NodeJS.Timeout | null;

  constructor(private readonly request: FastifyRequest, private readonly reply: FastifyReply, options: SseStreamOptions) {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': String(request.id),
      ...options.headers,
    });
    raw.socket?.setNoDelay(true);
    raw.flushHeaders();
    this.ping = options.pingIntervalMs > 0 ? setInterval(() => this.comment('ping'), options.pingIntervalMs) : null;
    this.ping?.unref();
    raw.on('close', () => this.finish());
    raw.on('error', () => this.finish());
    const server = request.server.server;
    let streams = openStreams.get(server);
    if (!streams) openStreams.set(server, (streams = new Set()));
    streams.add(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Writes one frame. Returns false when the stream is closed (or was just cut for being slow). */
  send(data: object, id?: string): boolean {
    return this.write(`${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`);
  }

  /** Resolves once the socket has taken what was written (or the stream closed): lets long replays pace themselves. */
  drained(): Promise<void> {
    const raw = this.reply.raw;
    if (this.closed || !raw.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        raw.off('drain', done);
        resolve();
      };
      raw.once('drain', done);
      this.onClose(done);
    });
  }

  comment(text: string): boolean {
    return this.write(`: ${text}\n\n`);
  }

  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  /** Ends the response cleanly (the client sees the stream end, not an error). */
  end(): void {
    if (this.closed) return;
    this.reply.raw.end();
    this.finish();
  }

  private write(chunk: string): boolean {
    if (this.closed) return false;
    const raw = this.reply.raw;
    if (raw.writableLength > maxBufferedBytes) {
      this.request.log.warn('SSE client too slow; closing its stream');
      raw.destroy();
      this.finish();
      return false;
    }
    raw.write(chunk);
    return true;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    openStreams.get(this.request.server.server)?.delete(this);
    if (this.ping) clearInterval(this.ping);
    for (const handler of this.closeHandlers.splice(0)) {
      try {
        handler();
      } catch (error) {
        this.request.log.error({ err: error }, 'SSE close handler failed');
      }
    }
  }
}
