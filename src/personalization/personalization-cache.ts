import type { Db } from '../db/database.js';
import { channels, type EventBus } from '../events/event-bus.js';
import { personalizationFromJson, type Personalization } from './personalization-schema.js';

export const personalizationTtlMs = 60 * 60 * 1000;
const maxEntries = 10_000;

interface Entry {
  value: Personalization;
  loadedAt: number;
}

/**
 * GET /agent/personalization's cache: one entry per project, kept for an hour,
 * dropped the moment a save is announced on the bus (channels.personalizationSaved),
 * from this instance or — with a shared bus — any other.
 */
export class PersonalizationCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every invalidation, so a load that raced a save is not cached. */
  private readonly generations = new Map<string, number>();
  private generation = 0;

  constructor(private readonly db: Db, private readonly ttlMs = personalizationTtlMs) {}

  async listen(bus: EventBus): Promise<() => Promise<void>> {
    return bus.subscribe(channels.personalizationSaved, (message) => {
      const projectId = (message as { projectId?: unknown } | null)?.projectId;
      if (typeof projectId === 'string') this.invalidate(projectId);
    });
  }

  invalidate(projectId: string): void {
    this.entries.delete(projectId);
    this.generations.set(projectId, ++this.generation);
    if (this.generations.size > maxEntries) this.generations.delete(this.generations.keys().next().value as string);
  }

  /** The project's personalization, or null when the project does not exist. */
  async get(projectId: string): Promise<Personalization | null> {
    const cached = this.entries.get(projectId);
    if (cached && Date.now() - cached.loadedAt < this.ttlMs) return cached.value;
    const before = this.generations.get(projectId);
    const row = await this.db.selectFrom('projects').select('personalization').where('id', '=', projectId).executeTakeFirst();
    if (!row) return null;
    const value = personalizationFromJson(row.personalization);
    if (this.generations.get(projectId) === before) {
      if (this.entries.size >= maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(projectId, { value, loadedAt: Date.now() });
    }
    return value;
  }
}
