interface Entry<V> {
  value: V;
  loadedAt: number;
}

/**
 * Values loaded from the database, kept in memory per key for `ttlMs` and dropped at once
 * by invalidate() (which callers wire to a bus channel, so a save on any instance reaches
 * every instance). A load that raced an invalidation is returned but not kept: a save is
 * never hidden behind a read that started before it. The TTL bounds staleness for changes
 * nobody announces (the CLI without Redis, a manual database edit); maxEntries bounds memory.
 */
export class InvalidatingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Bumped on every invalidation, so a load can tell whether one happened meanwhile. */
  private readonly generations = new Map<string, number>();
  private generation = 0;

  constructor(
    /** Reads a key's value; undefined (the thing does not exist) is not cached. */
    private readonly load: (key: string) => Promise<V | undefined>,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  invalidate(key: string): void {
    this.entries.delete(key);
    this.generations.set(key, ++this.generation);
    if (this.generations.size > this.maxEntries) this.generations.delete(this.generations.keys().next().value as string);
  }

  /** The cached value, or a fresh load. */
  async get(key: string): Promise<V | undefined> {
    const cached = this.entries.get(key);
    if (cached && Date.now() - cached.loadedAt < this.ttlMs) return cached.value;
    const before = this.generations.get(key);
    const value = await this.load(key);
    if (value === undefined) return undefined;
    if (this.generations.get(key) === before) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value, loadedAt: Date.now() });
    }
    return value;
  }
}
