import { sql, type Kysely } from 'kysely';
import { addSerialPrimaryKey, dialectOf } from '../dialect.js';

/**
 * Human escalation: escalations, their messages, the workspace event log
 * (also the transactional outbox) and webhook endpoints with their deliveries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);

  await db.schema
    .createTable('escalations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('claimed_by_id', 'text')
    .addColumn('claimed_by_name', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_activity_at', 'text', (c) => c.notNull())
    .addColumn('last_message_at', 'text')
    .execute();
  // The database, not the code, guarantees one open escalation per session:
  // concurrent starts race on this index and the losers read the winner.
  await sql`create unique index escalations_open_session on escalations (session_id) where status in ('pending', 'active')`.execute(db);
  await db.schema.createIndex('escalations_queue').on('escalations').columns(['workspace_id', 'status', 'last_activity_at']).execute();
  await db.schema.createIndex('escalations_session').on('escalations').columns(['session_id', 'created_at']).execute();

  await addSerialPrimaryKey(db.schema.createTable('escalation_messages'), dialect)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('escalation_id', 'text', (c) => c.notNull().references('escalations.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('operator_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('escalation_messages_escalation').on('escalation_messages').columns(['escalation_id', 'created_at']).execute();

  await addSerialPrimaryKey(db.schema.createTable('escalation_events'), dialect)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('escalation_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('escalation_events_workspace').on('escalation_events').columns(['workspace_id', 'seq']).execute();
  await db.schema.createIndex('escalation_events_created').on('escalation_events').column('created_at').execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_workspace').on('webhook_endpoints').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhook_endpoints', 'escalation_events', 'escalation_messages', 'escalations']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
