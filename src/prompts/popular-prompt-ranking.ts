import { containsPersonalData } from './prompt-normalization.js';

export interface PromptTally {
  prompt: string;
  /** Distinct sessions that opened a turn with it. */
  sessions: number;
  /** ISO time it was last asked. */
  lastAt: string;
}

/** How many prompts per list a snapshot keeps: the maximum `limit` of the route. */
export const snapshotDepth = 20;

/**
 * Pure ranking: drops prompts under the privacy floor or with personal data,
 * then orders by distinct sessions, then by recency, then alphabetically (so
 * equal tallies give a stable order).
 */
export function rankPrompts(tallies: readonly PromptTally[], floor: number, depth = snapshotDepth): string[] {
  return tallies
    .filter((tally) => tally.sessions >= floor && !containsPersonalData(tally.prompt))
    .sort((a, b) => b.sessions - a.sessions || (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : 0) || (a.prompt < b.prompt ? -1 : 1))
    .slice(0, depth)
    .map((tally) => tally.prompt);
}
