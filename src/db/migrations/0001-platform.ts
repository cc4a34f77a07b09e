import type { Kysely } from 'kysely';

/**
 * Tenancy, credentials, sessions and identified end users.
 * Column types are portable: ids and ISO timestamps as text, booleans as
 * integer 0/1, JSON documents as text (docs/decisions/0002-portable-column-types.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull().defaultTo('demo:parley-demo'))
    .addColumn('model_base_url', 'text')
    .addColumn('model_api_key', 'text')
    .addColumn('persona_prompt', 'text')
    .addColumn('personalization', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('dev_prompts', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('popular_prompt_floor', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('max_hops', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('action_timeout_seconds', 'integer', (c) => c.notNull().defaultTo(600))
    .addColumn('escalate_tool_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('rate_limits', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_workspace').on('projects').column('workspace_id').execute();

  await db.schema
    .createTable('project_action_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // '' means "any app build"; otherwise the client's mcpVersion that declares it.
    .addColumn('mcp_version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payload_schema', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('project_action_types_unique')
    .on('project_action_types')
    .columns(['project_id', 'mcp_version', 'type'])
    .unique()
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_hash').on('api_keys').column('key_hash').unique().execute();
  await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_email').on('users').column('email').unique().execute();

  await db.schema
    .createTable('workspace_members')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('owner'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workspace_members_user').on('workspace_members').column('user_id').execute();

  await db.schema
    .createTable('user_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('user_tokens_hash').on('user_tokens').column('token_hash').unique().execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text')
    .addColumn('device_info', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema.createIndex('sessions_project').on('sessions').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('end_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('identifiers', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('end_users_project_user').on('end_users').columns(['project_id', 'user_id']).unique().execute();
  await db.schema.createIndex('end_users_project_updated').on('end_users').columns(['project_id', 'updated_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['end_users', 'sessions', 'user_tokens', 'workspace_members', 'users', 'api_keys', 'project_action_types', 'projects', 'workspaces']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
