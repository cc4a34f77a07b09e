import type { EventBus, Unsubscribe } from './event-bus.js';
import { parseFrozen } from './frozen-message.js';

/**
 * The single-instance bus. Messages are copied through JSON (one frozen copy
 * shared by the subscribers) and delivered on a later tick, exactly as the
 * Redis bus would: code that works here cannot come to depend on sharing
 * objects with the publisher or on synchronous delivery.
 */
export class InProcessEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<(message: unknown) => void>>();

  async publish(channel: string, message: unknown): Promise<void> {
    const handlers = this.handlers.get(channel);
    if (!handlers || handlers.size === 0) return;
    // Through JSON, as on Redis: only plain data crosses, and nothing is shared with the publisher.
    const shared = parseFrozen(JSON.stringify(message));
    for (const handler of [...handlers]) {
      setImmediate(() => handler(shared));
    }
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    return async () => {
      const current = this.handlers.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size === 0) this.handlers.delete(channel);
    };
  }

  /** Number of channels with live subscribers; lets tests prove listeners are removed. */
  get channelCount(): number {
    return this.handlers.size;
  }

  /** Never disconnects, so the handler never runs; kept so callers need no special case. */
  onReconnect(_handler: () => void): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
