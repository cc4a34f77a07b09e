import { describe, expect, it } from 'vitest';
import { InvalidatingCache } from '../../src/shared/invalidating-cache.js';

/** A loader over a map standing in for the database, counting its reads. */
function source(initial: Record<string, string>) {
  const rows = new Map(Object.entries(initial));
  const state = { reads: 0, rows };
  const load = async (key: string) => {
    state.reads++;
    return rows.get(key);
  };
  return { state, load };
}

describe('the invalidating cache behind personalization and the agent project cache', () => {
  it('reads once, then serves from memory until invalidated', async () => {
    const { state, load } = source({ p1: 'v1' });
    const cache = new InvalidatingCache(load, 60_000);
    expect(await cache.get('p1')).toBe('v1');
    expect(await cache.get('p1')).toBe('v1');
    expect(state.reads).toBe(1);
    state.rows.set('p1', 'v2');
    cache.invalidate('p1');
    expect(await cache.get('p1')).toBe('v2');
    expect(state.reads).toBe(2);
  });

  it('reads again once the time to live has passed', async () => {
    const { state, load } = source({ p1: 'v1' });
    const cache = new InvalidatingCache(load, 20);
    await cache.get('p1');
    state.rows.set('p1', 'v2');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.get('p1')).toBe('v2');
  });

  it('does not cache what does not exist', async () => {
    const { state, load } = source({});
    const cache = new InvalidatingCache(load, 60_000);
    expect(await cache.get('missing')).toBeUndefined();
    state.rows.set('missing', 'now here');
    expect(await cache.get('missing')).toBe('now here');
  });

  it('does not keep a read that raced an invalidation', async () => {
    const { state, load } = source({ p1: 'old' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cache = new InvalidatingCache(async (key: string) => {
      const value = await load(key);
      await gate;
      return value;
    }, 60_000);
    const racing = cache.get('p1');
    // A save lands while the read is in flight.
    state.rows.set('p1', 'new');
    cache.invalidate('p1');
    release();
    expect(await racing).toBe('old');
    expect(await cache.get('p1')).toBe('new');
  });

  it('keeps at most maxEntries values', async () => {
    const { state, load } = source({ a: '1', b: '2', c: '3' });
    const cache = new InvalidatingCache(load, 60_000, 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('c');
    expect(state.reads).toBe(3);
    await cache.get('a');
    expect(state.reads).toBe(4);
  });
});
