import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { EscalationEvent } from '../../src/escalations/escalation-event.js';
import { listEventsAfter, recordEscalationEvent } from '../../src/escalations/escalation-event-log.js';
import { validateModelSetting } from '../../src/projects/model-setting.js';
import { bootstrap } from '../../src/provisioning/bootstrap.js';
import { databaseUrlFor, testDialects } from '../support/harness.js';

describe.each(testDialects())('escalation event log order on %s', (dialect) => {
  let database: Database;
  let workspaceId: string;
  let projectId: string;
  beforeAll(async () => {
    database = openDatabase(databaseUrlFor(dialect), { poolSize: 4 });
    await migrateToLatest(database);
    ({ workspaceId, projectId } = await bootstrap(database.db, { userTokenTtlSeconds: 3600 }, validateModelSetting));
  });
  afterAll(() => database.close());

  const event = (escalationId: string): Omit<EscalationEvent, 'id'> => ({
    type: 'escalation-created',
    createdAt: new Date().toISOString(),
    workspaceId,
    projectId,
    escalationId,
    sessionId: 'ses_test',
    status: 'pending',
    reason: 'test',
    note: null,
  });

  it("commits a workspace's events in the order of their seq, so a replay after the last one seen skips nothing", async () => {
    const steps: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstRecorded!: () => void;
    const recorded = new Promise<void>((resolve) => (firstRecorded = resolve));

    // The first transaction records its event and stays open; the second records one in the same workspace.
    const first = database.db.transaction().execute(async (trx) => {
      await recordEscalationEvent(trx, event('esc_first'));
      firstRecorded();
      await held;
      steps.push('first commits');
    });
    await recorded;
    const second = database.db.transaction().execute(async (trx) => {
      await recordEscalationEvent(trx, event('esc_second'));
      steps.push('second recorded');
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    steps.push('first released');
    release();
    await Promise.all([first, second]);

    expect(steps).toEqual(['first released', 'first commits', 'second recorded']);
    const { events } = await listEventsAfter(database.db, workspaceId, null, 10);
    expect(events.map((e) => e.escalationId)).toEqual(['esc_first', 'esc_second']);
  });
});
