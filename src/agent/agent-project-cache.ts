import type { Db } from '../db/database.js';
import { channels, type EventBus } from '../events/event-bus.js';
import { findProject, type ProjectRecord } from '../projects/project-repository.js';
import { InvalidatingCache } from '../shared/invalidating-cache.js';
import { catalogFromRows, loadActionTypeRows, type ActionCatalog, type ActionTypeRecord } from './action-catalog.js';

/**
 * Bounds staleness when a change is not announced on this instance's bus (the CLI
 * without REDIS_URL, or a manual edit of the database). Announced changes apply at once.
 */
export const agentProjectTtlMs = 30_000;

interface Entry {
  project: ProjectRecord;
  rows: ActionTypeRecord[];
  /** Built catalogs by requested mcpVersion ('' for none): the same few versions recur. */
  catalogs: Map<string, ActionCatalog>;
}

/**
 * What every agent call reads about its project — the project row (model, persona,
 * personalization, limits) and its action catalog — kept in memory instead of two
 * queries and a catalog build per message. Dropped the moment a save is announced
 * on the bus (channels.projectUpdated for settings and action types,
 * channels.personalizationSaved for the assistant name and locale), from this
 * instance or, with a shared bus, any other.
 */
export class AgentProjectCache {
  private readonly cache: InvalidatingCache<Entry>;

  constructor(db: Db, ttlMs = agentProjectTtlMs) {
    this.cache = new InvalidatingCache(async (projectId): Promise<Entry | undefined> => {
      const [project, rows] = await Promise.all([findProject(db, projectId), loadActionTypeRows(db, projectId)]);
      return project ? { project, rows, catalogs: new Map() } : undefined;
    }, ttlMs);
  }

  async listen(bus: EventBus): Promise<() => Promise<void>> {
    const onMessage = (message: unknown) => {
      const projectId = (message as { projectId?: unknown } | null)?.projectId;
      if (typeof projectId === 'string') this.invalidate(projectId);
    };
    const unsubscribers = [await bus.subscribe(channels.projectUpdated, onMessage), await bus.subscribe(channels.personalizationSaved, onMessage)];
    return async () => {
      for (const unsubscribe of unsubscribers) await unsubscribe();
    };
  }

  invalidate(projectId: string): void {
    this.cache.invalidate(projectId);
  }

  /** The project row, or undefined when it does not exist (not cached: the next call asks again). */
  async project(projectId: string): Promise<ProjectRecord | undefined> {
    return (await this.cache.get(projectId))?.project;
  }

  /** The catalog of the project for a message's mcpVersion (rule in action-catalog.ts). */
  async catalog(projectId: string, mcpVersion: string | null): Promise<ActionCatalog | undefined> {
    const entry = await this.cache.get(projectId);
    if (!entry) return undefined;
    const key = mcpVersion ?? '';
    let catalog = entry.catalogs.get(key);
    if (!catalog) {
      catalog = catalogFromRows(entry.rows, entry.project, mcpVersion);
      // Versions come from clients; the bound keeps a flood of made-up ones from growing memory.
      if (entry.catalogs.size >= 50) entry.catalogs.clear();
      entry.catalogs.set(key, catalog);
    }
    return catalog;
  }
}
