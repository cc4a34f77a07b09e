import type { Redis } from 'ioredis';
import type { TokenBucketSettings } from '../config/config.js';
import type { BucketStore, TakeResult } from './bucket-store.js';

/**
 * takeToken() (bucket-store.ts) as one atomic Lua script, so every instance
 * shares each bucket. Time is Redis's own clock: instances' clocks may differ.
 * The key expires once the bucket would be full again, so idle keys cost nothing.
 */
const takeScript = `
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = capacity
  ts = now
end
tokens = math.min(capacity, tokens + math.max(0, now - ts) * refill / 1000)
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) * 1000 / refill)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity * 1000 / refill) + 1000)
return { allowed, retry }
`;

export class RedisBucketStore implements BucketStore {
  constructor(private readonly redis: Redis, private readonly prefix: string) {
    redis.defineCommand('parleyTakeToken', { numberOfKeys: 1, lua: takeScript });
  }

  async take(key: string, settings: TokenBucketSettings): Promise<TakeResult> {
    const command = (this.redis as unknown as Record<string, (...args: Array<string | number>) => Promise<[number, number]>>)['parleyTakeToken'];
    if (!command) throw new Error('rate-limit script is not defined');
    const [allowed, retryAfterMs] = await command.call(this.redis, `${this.prefix}rate:${key}`, settings.capacity, settings.refillPerSecond);
    return { allowed: allowed === 1, retryAfterMs };
  }

  /** The connection belongs to the event bus, which closes it. */
  async close(): Promise<void> {}
}
