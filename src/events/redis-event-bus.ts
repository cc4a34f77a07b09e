import { Redis } from 'ioredis';
import { parseFrozen } from './frozen-message.js';
import type { Logger } from 'pino';
import type { EventBus, Unsubscribe } from './event-bus.js';

export interface RedisEventBusOptions {
  /** Prepended to every channel, so several deployments can share one Redis. */
  prefix: string;
  logger: Logger;
  /** How long start-up waits for Redis before failing, in milliseconds. */
  connectTimeoutMs?: number;
  /** Longest a publish waits while Redis is away before giving up on it, in milliseconds. */
  publishTimeoutMs?: number;
}

type Handler = (message: unknown) => void;

/**
 * The event bus across instances: Redis pub/sub, one publishing and one
 * subscribing connection per process however many local subscribers there
 * are. Each Redis channel is subscribed once and fanned out to local handlers.
 *
 * Redis pub/sub is at-most-once: while the connection is down, messages are
 * lost to this instance. On reconnect the bus subscribes every channel again
 * itself (ioredis's auto-resubscribe is off so we know when it is done) and
 * only then runs the onReconnect handlers, which re-read from the database.
 */
export class RedisEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly prefix: string;
  private readonly logger: Logger;
  private readonly publishTimeoutMs: number;
  private hasBeenReady = false;
  private closed = false;

  private constructor(url: string, options: RedisEventBusOptions) {
    this.prefix = options.prefix;
    this.logger = options.logger;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 2000;
    const common = {
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs ?? 5000,
      // Reconnect forever, backing off to 2 s: a Redis restart must not need a Parley restart.
      retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
    };
    this.publisher = new Redis(url, { ...common, connectionName: `${options.prefix}publisher` });
    this.subscriber = new Redis(url, { ...common, connectionName: `${options.prefix}subscriber`, autoResubscribe: false });
    for (const [role, client] of [['publisher', this.publisher], ['subscriber', this.subscriber]] as const) {
      // Without a listener ioredis would crash the process on a connection error.
      client.on('error', (error: Error) => this.logger.warn({ err: { message: error.message }, role }, 'redis connection error'));
    }
    this.subscriber.on('message', (channel: string, payload: string) => this.deliver(channel, payload));
    this.subscriber.on('ready', () => {
      if (!this.hasBeenReady) {
        this.hasBeenReady = true;
        return;
      }
      void this.resubscribe();
    });
  }

  /** Connects both connections; fails with one clear line when Redis cannot be reached. */
  static async connect(url: string, options: RedisEventBusOptions): Promise<RedisEventBus> {
    const bus = new RedisEventBus(url, options);
    try {
      await Promise.all([bus.publisher.connect(), bus.subscriber.connect()]);
    } catch (error) {
      bus.publisher.disconnect();
      bus.subscriber.disconnect();
      throw new Error(`could not connect to REDIS_URL: ${error instanceof Error ? error.message : String(error)}`);
    }
    return bus;
  }

  /** The command connection, for other atomic Redis work (the shared rate limiter). */
  get commands(): Redis {
    return this.publisher;
  }

  get keyPrefix(): string {
    return this.prefix;
  }

  async publish(channel: string, message: unknown): Promise<void> {
    const payload = JSON.stringify(message);
    let timer: NodeJS.Timeout | undefined;
    try {
      // The caller's write is already committed: a Redis outage must not fail or hang
      // its request. Subscribers catch up from the database when they reconnect.
      await Promise.race([
        this.publisher.publish(this.prefix + channel, payload),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('publish timed out')), this.publishTimeoutMs);
        }),
      ]);
    } catch (error) {
      this.logger.warn({ err: { message: error instanceof Error ? error.message : String(error) }, channel: channelKind(channel) }, 'event not published to redis');
    } finally {
      clearTimeout(timer);
    }
  }

  async subscribe(channel: string, handler: Handler): Promise<Unsubscribe> {
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    // Commands on one connection run in order, so SUBSCRIBE/UNSUBSCRIBE pairs cannot cross.
    // While Redis is away the channel is only recorded: the reconnect subscribes it and
    // then runs the onReconnect handlers, so the caller does not hang on an outage.
    if (first && this.subscriber.status === 'ready') {
      try {
        await this.subscriber.subscribe(this.prefix + channel);
      } catch (error) {
        this.logger.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'redis subscribe failed; retried on reconnect');
      }
    }
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      const current = this.handlers.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size > 0) return;
      this.handlers.delete(channel);
      if (!this.closed && this.subscriber.status === 'ready') await this.subscriber.unsubscribe(this.prefix + channel).catch(() => undefined);
    };
  }

  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  /** Local channels with live handlers; lets tests prove listeners are removed. */
  get channelCount(): number {
    return this.handlers.size;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    this.reconnectHandlers.clear();
    await Promise.all([quit(this.publisher), quit(this.subscriber)]);
  }

  private deliver(prefixed: string, payload: string): void {
    if (!prefixed.startsWith(this.prefix)) return;
    const handlers = this.handlers.get(prefixed.slice(this.prefix.length));
    if (!handlers) return;
    let message: unknown;
    try {
      message = parseFrozen(payload);
    } catch {
      this.logger.warn('ignoring a redis event that is not JSON');
      return;
    }
    for (const handler of [...handlers]) {
      try {
        handler(message);
      } catch (error) {
        this.logger.error({ err: error }, 'event handler failed');
      }
    }
  }

  private async resubscribe(): Promise<void> {
    const channelNames = [...this.handlers.keys()].map((channel) => this.prefix + channel);
    try {
      if (channelNames.length > 0) await this.subscriber.subscribe(...channelNames);
    } catch (error) {
      // The connection dropped again; the next 'ready' retries.
      this.logger.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'redis resubscribe failed');
      return;
    }
    this.logger.info({ channels: channelNames.length }, 'redis event bus reconnected');
    for (const handler of [...this.reconnectHandlers]) {
      try {
        handler();
      } catch (error) {
        this.logger.error({ err: error }, 'reconnect handler failed');
      }
    }
  }
}

/** Channel names carry ids; logs get only their kind. */
function channelKind(channel: string): string {
  return channel.split(':')[0] ?? channel;
}

async function quit(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    await Promise.race([client.quit(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  } catch {
    // Already gone.
  }
  client.disconnect();
}
