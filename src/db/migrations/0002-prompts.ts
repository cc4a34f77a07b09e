import type { Kysely } from 'kysely';

/**
 * Popular prompts (opening messages and computed snapshots) and the indexes
 * the identify and admin routes look things up by.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per (project, normalized prompt, screen, session): counting rows is
  // counting distinct sessions. screen '' means "no currentScreen".
  await db.schema
    .createTable('prompt_openings')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('screen', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('last_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('prompt_openings_pk', ['project_id', 'prompt', 'screen', 'session_id'])
    .execute();

  // The latest computed lists of a project: JSON text, read by GET /agent/popular-prompts.
  await db.schema
    .createTable('popular_prompt_snapshots')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('global_prompts', 'text', (c) => c.notNull())
    .addColumn('screen_prompts', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .execute();

  // Admin list of identified users pages by id within a project.
  await db.schema.createIndex('end_users_project_id').on('end_users').columns(['project_id', 'id']).execute();
  // Operator tooling finds the sessions of a person.
  await db.schema.createIndex('sessions_project_user').on('sessions').columns(['project_id', 'user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sessions_project_user').ifExists().execute();
  await db.schema.dropIndex('end_users_project_id').ifExists().execute();
  await db.schema.dropTable('popular_prompt_snapshots').ifExists().execute();
  await db.schema.dropTable('prompt_openings').ifExists().execute();
}
