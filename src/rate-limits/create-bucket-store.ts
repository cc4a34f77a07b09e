import type { EventBus } from '../events/event-bus.js';
import { RedisEventBus } from '../events/redis-event-bus.js';
import type { BucketStore } from './bucket-store.js';
import { MemoryBucketStore } from './memory-bucket-store.js';
import { RedisBucketStore } from './redis-bucket-store.js';

/** Buckets shared through Redis when the bus is Redis (REDIS_URL), else in memory. */
export function createBucketStore(bus: EventBus): BucketStore {
  return bus instanceof RedisEventBus ? new RedisBucketStore(bus.commands, bus.keyPrefix) : new MemoryBucketStore();
}
