import type { Kysely } from 'kysely';
import { addSerialPrimaryKey, dialectOf } from '../dialect.js';

/** The agent's conversation: turns, messages, actions and the /agent/continue replay record. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('agent_turns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('hop', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('mcp_version', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_turns_session').on('agent_turns').columns(['session_id', 'created_at']).execute();

  await addSerialPrimaryKey(db.schema.createTable('agent_messages'), dialectOf(db))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('turn_id', 'text', (c) => c.notNull().references('agent_turns.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('hop', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mcp_version', 'text')
    .addColumn('usage', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_messages_session').on('agent_messages').columns(['session_id', 'seq']).execute();

  await db.schema
    .createTable('agent_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    // No foreign key to agent_messages: in a stream an action is stored (and sent) before its message is complete.
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('turn_id', 'text', (c) => c.notNull().references('agent_turns.id').onDelete('cascade'))
    .addColumn('tool_call_id', 'text', (c) => c.notNull())
    .addColumn('hop', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('result_summary', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_actions_session_status').on('agent_actions').columns(['session_id', 'status']).execute();
  await db.schema.createIndex('agent_actions_turn').on('agent_actions').column('turn_id').execute();
  await db.schema.createIndex('agent_actions_open_expiry').on('agent_actions').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('agent_continue_replies')
    .addColumn('turn_id', 'text', (c) => c.notNull().references('agent_turns.id').onDelete('cascade'))
    .addColumn('hop', 'integer', (c) => c.notNull())
    .addColumn('result_ids', 'text', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_continue_replies_pk', ['turn_id', 'hop'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['agent_continue_replies', 'agent_actions', 'agent_messages', 'agent_turns']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
