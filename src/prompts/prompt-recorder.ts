import { compiledOnce } from '../db/compiled-once.js';
import type { Db } from '../db/database.js';
import { containsPersonalData, normalizePrompt } from './prompt-normalization.js';

export interface OpeningPrompt {
  projectId: string;
  sessionId: string;
  /** context.currentScreen of the message, when the app sent one. */
  screen: string | null;
  content: string;
  at: string;
}

const maxScreenLength = 200;

const upsertOpening = compiledOnce((db, projectId: string, prompt: string, screen: string, sessionId: string, at: string, atAgain: string) =>
  db
    .insertInto('prompt_openings')
    .values({ project_id: projectId, prompt, screen, session_id: sessionId, last_at: at })
    .onConflict((conflict) => conflict.columns(['project_id', 'prompt', 'screen', 'session_id']).doUpdateSet({ last_at: atAgain })));

/**
 * Records the first user message of a turn for popular prompts. Called by the
 * agent inside the transaction that stores the message. One row per
 * (prompt, screen, session): asking again in the same session only moves its
 * recency. Prompts with personal data are dropped here (and again at compute
 * time, so a rule change also cleans up what was stored before it).
 */
export async function recordOpeningPrompt(db: Db, prompt: OpeningPrompt): Promise<void> {
  const normalized = normalizePrompt(prompt.content);
  if (normalized === null || containsPersonalData(normalized)) return;
  const screen = (prompt.screen ?? '').trim().slice(0, maxScreenLength);
  await upsertOpening(db, prompt.projectId, normalized, screen, prompt.sessionId, prompt.at, prompt.at);
}
