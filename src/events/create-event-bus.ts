import type { EventBus } from './event-bus.js';
import { InProcessEventBus } from './in-process-event-bus.js';

/** The bus for this process: in-process, or Redis when REDIS_URL is set (scale-out). */
export async function createEventBus(redisUrl: string | null): Promise<EventBus> {
  if (redisUrl === null) return new InProcessEventBus();
  throw new Error('REDIS_URL is set but the Redis event bus is not available in this build');
}
