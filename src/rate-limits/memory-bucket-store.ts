import type { TokenBucketSettings } from '../config/config.js';
import { takeToken, type BucketState, type BucketStore, type TakeResult } from './bucket-store.js';

const sweepAboveEntries = 50_000;

/** Buckets in this process: right for one instance, per-instance when there are several. */
export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, BucketState>();

  async take(key: string, settings: TokenBucketSettings): Promise<TakeResult> {
    const now = Date.now();
    const { state, result } = takeToken(this.buckets.get(key), settings, now);
    this.buckets.set(key, state);
    if (this.buckets.size > sweepAboveEntries) this.sweep(now, settings);
    return result;
  }

  /** Drops buckets idle long enough to be full again: they equal a missing one. */
  private sweep(now: number, settings: TokenBucketSettings): void {
    const fullAfterMs = (settings.capacity * 1000) / settings.refillPerSecond;
    for (const [key, state] of this.buckets) {
      if (now - state.updatedAtMs > fullAfterMs) this.buckets.delete(key);
    }
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
