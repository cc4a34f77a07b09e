import type { RateLimitSettings, TokenBucketSettings } from '../config/config.js';
import type { Db } from '../db/database.js';

export type RouteClass = 'agentMessage' | 'default';

const cacheTtlMs = 30_000;

/**
 * A project's limits: the configured defaults, overridden field by field by
 * the project's `rate_limits` JSON, e.g.
 * `{"agentMessage":{"capacity":20,"refillPerSecond":0.5},"default":{"capacity":100}}`.
 * Values that are not positive numbers are ignored (the default stands), so a
 * bad override can never switch limiting off.
 */
export function mergeRateLimits(defaults: RateLimitSettings, json: string): RateLimitSettings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return defaults;
  }
  if (typeof parsed !== 'object' || parsed === null) return defaults;
  const overrides = parsed as Record<string, unknown>;
  return {
    enabled: defaults.enabled,
    agentMessage: mergeBucket(defaults.agentMessage, overrides['agentMessage']),
    default: mergeBucket(defaults.default, overrides['default']),
  };
}

function mergeBucket(fallback: TokenBucketSettings, value: unknown): TokenBucketSettings {
  if (typeof value !== 'object' || value === null) return fallback;
  const record = value as Record<string, unknown>;
  const positive = (candidate: unknown, otherwise: number) => (typeof candidate === 'number' && Number.isFinite(candidate) && candidate > 0 ? candidate : otherwise);
  return { capacity: Math.max(1, Math.floor(positive(record['capacity'], fallback.capacity))), refillPerSecond: positive(record['refillPerSecond'], fallback.refillPerSecond) };
}

/** Per-project limits with a short cache: the hot path does no query. */
export class ProjectRateLimits {
  private readonly cache = new Map<string, { limits: RateLimitSettings; loadedAt: number }>();

  constructor(private readonly db: Db, private readonly defaults: RateLimitSettings) {}

  async forProject(projectId: string): Promise<RateLimitSettings> {
    const cached = this.cache.get(projectId);
    if (cached && Date.now() - cached.loadedAt < cacheTtlMs) return cached.limits;
    const row = await this.db.selectFrom('projects').select('rate_limits').where('id', '=', projectId).executeTakeFirst();
    const limits = row ? mergeRateLimits(this.defaults, row.rate_limits) : this.defaults;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(projectId, { limits, loadedAt: Date.now() });
    return limits;
  }

  /** A project changed somewhere (projectUpdated on the bus): forget it, or everything. */
  forget(projectId: string | null): void {
    if (projectId === null) this.cache.clear();
    else this.cache.delete(projectId);
  }
}
