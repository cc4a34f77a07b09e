import type { Db } from '../db/database.js';
import { channels, type EventBus } from '../events/event-bus.js';
import { InvalidatingCache } from '../shared/invalidating-cache.js';
import { personalizationFromJson, type Personalization } from './personalization-schema.js';

export const personalizationTtlMs = 60 * 60 * 1000;

/**
 * GET /agent/personalization's cache: one entry per project, kept for an hour,
 * dropped the moment a save is announced on the bus (channels.personalizationSaved),
 * from this instance or — with a shared bus — any other.
 */
export class PersonalizationCache {
  private readonly cache: InvalidatingCache<Personalization>;

  constructor(db: Db, ttlMs = personalizationTtlMs) {
    this.cache = new InvalidatingCache(async (projectId) => {
      const row = await db.selectFrom('projects').select('personalization').where('id', '=', projectId).executeTakeFirst();
      return row ? personalizationFromJson(row.personalization) : undefined;
    }, ttlMs);
  }

  async listen(bus: EventBus): Promise<() => Promise<void>> {
    return bus.subscribe(channels.personalizationSaved, (message) => {
      const projectId = (message as { projectId?: unknown } | null)?.projectId;
      if (typeof projectId === 'string') this.invalidate(projectId);
    });
  }

  invalidate(projectId: string): void {
    this.cache.invalidate(projectId);
  }

  /** The project's personalization, or null when the project does not exist. */
  async get(projectId: string): Promise<Personalization | null> {
    return (await this.cache.get(projectId)) ?? null;
  }
}
