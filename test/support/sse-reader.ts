/** One SSE frame as a client sees it: data parsed as JSON, or a comment line (pings). */
export interface SseFrame {
  id?: string;
  data?: any;
  comment?: string;
}

export interface SseOpenResult {
  status: number;
  headers: Headers;
  /** Set when the answer is an event stream. */
  stream: SseReader | null;
  /** The parsed JSON body when it is not (e.g. a 404 envelope). */
  body: any;
}

/**
 * A small SSE client over fetch's body stream: frames are queued as they
 * arrive, `next()` waits for one (failing after a timeout), and `ended`
 * tells when the server closed the stream.
 */
export class SseReader {
  private readonly frames: SseFrame[] = [];
  private readonly waiters: Array<() => void> = [];
  private buffer = '';
  ended = false;

  static async open(url: string, headers: Record<string, string>): Promise<SseOpenResult> {
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal });
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || !response.body) {
      const text = await response.text();
      return { status: response.status, headers: response.headers, stream: null, body: text ? JSON.parse(text) : undefined };
    }
    const reader = new SseReader(controller);
    void reader.pump(response.body);
    return { status: response.status, headers: response.headers, stream: reader, body: undefined };
  }

  private constructor(private readonly controller: AbortController) {}

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        let index: number;
        while ((index = this.buffer.indexOf('\n\n')) >= 0) {
          const block = this.buffer.slice(0, index);
          this.buffer = this.buffer.slice(index + 2);
          this.frames.push(parseFrame(block));
          this.notify();
        }
      }
    } catch {
      // Aborted by close(), or the connection dropped: either way the stream has ended.
    }
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private wait(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** The next frame, comments included. */
  async nextFrame(timeoutMs = 5000): Promise<SseFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = this.frames.shift();
      if (frame) return frame;
      if (this.ended) throw new Error('stream ended');
      if (!(await this.wait(deadline - Date.now())) && this.frames.length === 0) throw new Error(`no SSE frame within ${timeoutMs} ms`);
    }
  }

  /** The next data frame, skipping comments (pings). */
  async next(timeoutMs = 5000): Promise<SseFrame & { data: any }> {
    for (;;) {
      const frame = await this.nextFrame(timeoutMs);
      if (frame.data !== undefined) return frame as SseFrame & { data: any };
    }
  }

  /** Resolves when the server ends the stream; data frames still queued are returned. */
  async waitForEnd(timeoutMs = 5000): Promise<SseFrame[]> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (!(await this.wait(deadline - Date.now())) && !this.ended) throw new Error(`stream did not end within ${timeoutMs} ms`);
    }
    return this.frames.splice(0).filter((f) => f.data !== undefined);
  }

  /** Data frames that arrived by now, without waiting. */
  drain(): SseFrame[] {
    return this.frames.splice(0).filter((f) => f.data !== undefined);
  }

  close(): void {
    this.controller.abort();
  }
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    else if (line.startsWith('id:')) frame.id = line.slice(3).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  if (data.length > 0) frame.data = JSON.parse(data.join('\n'));
  return frame;
}
