import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { EventBus } from '../events/event-bus.js';
import type { EscalationEvent } from './escalation-event.js';
import { findEventSeq, listEventsAfter } from './escalation-event-log.js';

/** Sent feed ids remembered for de-duplication after a resync; older ones cannot come back live. */
const rememberedIds = 2000;
const pageSize = 500;

/** The highest event seq of the workspace now (0 when none): where a live feed starts. */
export async function latestEventSeq(db: Db, workspaceId: string): Promise<number> {
  const row = await db.selectFrom('escalation_events').select((eb) => eb.fn.max('seq').as('seq')).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
}

/**
 * Runs `resync` each time the bus reconnects (Redis came back: events
 * published meanwhile never reached this instance), until the stream closes.
 * Failures are logged; the stream stays up and the next reconnect tries again.
 */
export function resyncOnReconnect(bus: EventBus, log: FastifyBaseLogger, onClose: (handler: () => void) => void, resync: () => Promise<void>): void {
  const stop = bus.onReconnect?.(() => {
    resync().catch((error: unknown) => log.error({ err: error }, 'stream resync after reconnect failed'));
  });
  if (stop) onClose(stop);
}

/**
 * The operator feed's memory of what it sent: the last event id (where a
 * resync reads on from) and recent ids (so nothing is sent twice).
 */
export class FeedCursor {
  private readonly recent = new Set<string>();
  private lastId: string | null = null;

  constructor(private readonly db: Db, private readonly workspaceId: string, private openSeq: number) {}

  has(eventId: string): boolean {
    return this.recent.has(eventId);
  }

  record(eventId: string): void {
    this.lastId = eventId;
    this.recent.add(eventId);
    if (this.recent.size > rememberedIds) this.recent.delete(this.recent.values().next().value as string);
  }

  /** Sends, in order, every retained event after the last one sent that was not sent yet. */
  async catchUp(send: (event: EscalationEvent) => boolean): Promise<void> {
    let after = this.lastId === null ? this.openSeq : ((await findEventSeq(this.db, this.workspaceId, this.lastId)) ?? this.openSeq);
    for (;;) {
      const page = await listEventsAfter(this.db, this.workspaceId, after, pageSize);
      for (const event of page.events) {
        if (this.has(event.id)) continue;
        if (!send(event)) return;
      }
      if (page.events.length < pageSize || page.lastSeq === null) return;
      after = page.lastSeq;
      this.openSeq = after;
    }
  }
}
