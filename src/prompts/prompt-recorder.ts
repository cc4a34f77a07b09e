import type { Db } from '../db/database.js';

export interface OpeningPrompt {
  projectId: string;
  sessionId: string;
  /** context.currentScreen of the message, when the app sent one. */
  screen: string | null;
  content: string;
  at: string;
}

/**
 * Records the first user message of a turn for popular prompts. Called by the
 * agent inside the transaction that stores the message. Implemented by the
 * popular-prompts feature.
 */
export async function recordOpeningPrompt(_db: Db, _prompt: OpeningPrompt): Promise<void> {}
