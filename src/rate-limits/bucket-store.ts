import type { TokenBucketSettings } from '../config/config.js';

export interface TakeResult {
  readonly allowed: boolean;
  /** When refused: how long until one token is back, in milliseconds. */
  readonly retryAfterMs: number;
}

/** Where token buckets live: this process's memory, or Redis shared by every instance. */
export interface BucketStore {
  take(key: string, settings: TokenBucketSettings): Promise<TakeResult>;
  close(): Promise<void>;
}

export interface BucketState {
  tokens: number;
  updatedAtMs: number;
}

/**
 * The token bucket, as a pure step: refill for the time passed, then take one
 * token if there is one. The Redis Lua script implements exactly this.
 */
export function takeToken(state: BucketState | undefined, settings: TokenBucketSettings, nowMs: number): { state: BucketState; result: TakeResult } {
  const elapsedMs = state ? Math.max(0, nowMs - state.updatedAtMs) : 0;
  const tokens = state ? Math.min(settings.capacity, state.tokens + (elapsedMs * settings.refillPerSecond) / 1000) : settings.capacity;
  if (tokens >= 1) return { state: { tokens: tokens - 1, updatedAtMs: nowMs }, result: { allowed: true, retryAfterMs: 0 } };
  return {
    state: { tokens, updatedAtMs: nowMs },
    result: { allowed: false, retryAfterMs: Math.ceil(((1 - tokens) * 1000) / settings.refillPerSecond) },
  };
}
