import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';

/**
 * CONTRACT.md: with no model configured, Parley still answers through the
 * offline demo model and says so once in the log. "No model configured"
 * means no provider credentials in the environment and no project that names
 * a real model.
 */
export async function demoModelNotice(db: Db, config: Config): Promise<string | null> {
  if (config.openaiApiKey !== null || config.anthropicApiKey !== null) return null;
  const real = await db.selectFrom('projects').select('id').where('model', 'not like', 'demo:%').limit(1).executeTakeFirst();
  if (real) return null;
  return 'no model is configured: agents answer through the offline demo model (set a project model with `parley project set-model` or in the dashboard, see README "Quick start")';
}
