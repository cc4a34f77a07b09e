import pino, { type Logger } from 'pino';
import type { EventBus } from './event-bus.js';
import { InProcessEventBus } from './in-process-event-bus.js';
import { RedisEventBus } from './redis-event-bus.js';

/**
 * The bus for this process: in-process, or Redis when REDIS_URL is set (scale-out).
 * Pass the configured PARLEY_REDIS_PREFIX: a bus with another prefix hears nothing.
 */
export async function createEventBus(redisUrl: string | null, options: { prefix?: string; logger?: Logger } = {}): Promise<EventBus> {
  if (redisUrl === null) return new InProcessEventBus();
  return RedisEventBus.connect(redisUrl, { prefix: options.prefix ?? 'parley:', logger: options.logger ?? pino({ level: 'warn' }) });
}
