import type { Db } from '../db/database.js';
import { computeAllPopularPrompts } from './popular-prompt-computation.js';

/**
 * Recomputes popular prompts every `intervalMs`, off the request path. Runs
 * never overlap; stop() waits for the one in flight so the database can close.
 */
export class PopularPromptsJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly db: Db, private readonly intervalMs: number, private readonly onError: (error: unknown) => void) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  /** One run now (also what the timer calls); a run already in flight is joined, not repeated. */
  runOnce(): Promise<void> {
    this.running ??= computeAllPopularPrompts(this.db)
      .then(() => undefined, this.onError)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
