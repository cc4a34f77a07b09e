/** What a stream does when the server shuts down. */
export type ShutdownBehaviour = 'end' | 'finish';

interface Tracked {
  end(reason: string): void;
  onClose(handler: () => void): void;
}

/**
 * The app's open SSE streams, so shutdown can deal with them. Subscription
 * streams (escalation replies, the operator feed) never end on their own:
 * they are ended at once, cleanly, and clients reconnect to another instance
 * (with `since` to catch up). Response streams (`finish`, an agent turn
 * being streamed) are left to complete, within the shutdown timeout.
 */
export class OpenStreams {
  private readonly streams = new Map<Tracked, ShutdownBehaviour>();
  private closing = false;

  add(stream: Tracked, behaviour: ShutdownBehaviour): void {
    if (this.closing && behaviour === 'end') {
      queueMicrotask(() => stream.end('server shutting down'));
      return;
    }
    this.streams.set(stream, behaviour);
    stream.onClose(() => this.streams.delete(stream));
  }

  get size(): number {
    return this.streams.size;
  }

  /** Ends the subscription streams now (and any opened later); `all` ends response streams too. */
  endAll(options: { all: boolean }): void {
    this.closing = true;
    for (const [stream, behaviour] of [...this.streams]) {
      if (options.all || behaviour === 'end') stream.end('server shutting down');
    }
  }
}
