import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { channels } from '../events/event-bus.js';
import { notFound } from '../http/errors.js';
import { SseStream } from '../sse/sse-writer.js';
import type { EscalationEvent, EscalationSignal } from './escalation-event.js';
import { findEventSeq, listEventsAfter } from './escalation-event-log.js';
import { findEscalationInProject, listEscalationMessages } from './escalation-repository.js';
import { FeedCursor, latestEventSeq, resyncOnReconnect } from './stream-resync.js';

/** Replay pages of the workspace feed; each page is written before the next is read. */
const replayPageSize = 500;

/**
 * Subscribes first and buffers what arrives while the backlog is read, then
 * hands over to `deliver`: nothing committed after the subscription is lost,
 * and `deliver` drops what the backlog already sent.
 */
async function subscribeBuffered<T>(ctx: AppContext, channel: string) {
  const buffered: T[] = [];
  let deliver: ((message: T) => void) | null = null;
  const unsubscribe = await ctx.bus.subscribe(channel, (message) => {
    if (deliver) deliver(message as T);
    else buffered.push(message as T);
  });
  return {
    unsubscribe,
    goLive(handler: (message: T) => void): void {
      for (const message of buffered.splice(0)) handler(message);
      deliver = handler;
    },
  };
}

/** GET /agent/escalation/:id/stream: status, backlog of operator messages, then live frames. */
export async function serveEscalationStream(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, projectId: string, escalationId: string, since: string | undefined): Promise<void> {
  // Unknown or foreign ids answer 404 JSON before anything is subscribed or streamed.
  if (!(await findEscalationInProject(ctx.db, projectId, escalationId))) throw notFound('escalation');
  const subscription = await subscribeBuffered<EscalationSignal>(ctx, channels.escalation(escalationId));
  let current;
  let backlog;
  try {
    current = await findEscalationInProject(ctx.db, projectId, escalationId);
    backlog = await listEscalationMessages(ctx.db, escalationId, { since, operatorOnly: true });
  } catch (error) {
    await subscription.unsubscribe();
    throw error;
  }
  if (!current) {
    await subscription.unsubscribe();
    throw notFound('escalation');
  }

  const stream = new SseStream(request, reply, { pingIntervalMs: ctx.config.ssePingIntervalMs });
  stream.onClose(() => void subscription.unsubscribe());
  let status = current.status;
  stream.send({ type: 'status', status, ...(status === 'active' && current.claimed_by_name ? { operatorName: current.claimed_by_name } : {}) });
  const sent = new Set<string>();
  for (const message of backlog) {
    sent.add(message.id);
    stream.send({ type: 'human-message', message: { id: message.id, content: message.content, createdAt: message.created_at } });
  }
  if (status === 'resolved') {
    stream.end();
    return;
  }
  // Live signals are wake-ups; the frames themselves are read from the database after the last
  // one sent, one read at a time. Replies committed concurrently can be *published* out of order
  // (on Redis even more so), but they commit in createdAt order under the escalation's row lock,
  // so reading from the cursor always sends them in order — and a client that reconnects with
  // since = the last createdAt it saw can never skip an earlier reply that arrived late.
  let cursor = backlog.at(-1)?.created_at ?? since;
  let queue: Promise<void> = Promise.resolve();
  const inOrder = (work: () => Promise<void> | void) => {
    queue = queue.then(async () => {
      if (!stream.isClosed) await work();
    }).catch((error: unknown) => {
      request.log.error({ err: error }, 'escalation stream read failed');
      stream.end();
    });
  };
  const pullMessages = async () => {
    for (const message of await listEscalationMessages(ctx.db, escalationId, { since: cursor, operatorOnly: true })) {
      cursor = message.created_at;
      if (sent.has(message.id)) continue;
      sent.add(message.id);
      stream.send({ type: 'human-message', message: { id: message.id, content: message.content, createdAt: message.created_at } });
    }
  };
  const sendStatus = (next: EscalationSignal & { kind: 'status' }) => {
    // A change the snapshot already showed (it arrived while the backlog was read) is not repeated.
    if (next.status === status) return;
    status = next.status;
    stream.send({ type: 'status', status: next.status, ...(next.operatorName ? { operatorName: next.operatorName } : {}) });
    if (status === 'resolved') stream.end();
  };
  subscription.goLive((signal) => {
    if (signal.kind === 'human-message') inOrder(pullMessages);
    else inOrder(async () => {
      // Resolved ends the stream, so every reply committed before it goes out first.
      if (signal.status === 'resolved') await pullMessages();
      sendStatus(signal);
    });
  });
  // Redis was away (scale-out): what was published meanwhile is read back from the database.
  resyncOnReconnect(ctx.bus, request.log, (handler) => stream.onClose(handler), async () => {
    inOrder(async () => {
      await pullMessages();
      const latest = await findEscalationInProject(ctx.db, projectId, escalationId);
      if (latest) sendStatus({ kind: 'status', status: latest.status, ...(latest.claimed_by_name ? { operatorName: latest.claimed_by_name } : {}) });
    });
  });
}

/** GET /escalations/stream: every escalation event of the workspace; Last-Event-ID replays. */
export async function serveWorkspaceFeed(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, workspaceId: string): Promise<void> {
  const header = request.headers['last-event-id'];
  const lastEventId = typeof header === 'string' && header.trim() !== '' ? header.trim().slice(0, 64) : null;
  const subscription = await subscribeBuffered<EscalationEvent>(ctx, channels.workspaceFeed(workspaceId));
  const cursor = new FeedCursor(ctx.db, workspaceId, await latestEventSeq(ctx.db, workspaceId));
  const stream = new SseStream(request, reply, { pingIntervalMs: ctx.config.ssePingIntervalMs });
  stream.onClose(() => void subscription.unsubscribe());
  const replayed = new Set<string>();
  if (lastEventId !== null) {
    try {
      // An id we no longer know (pruned, or never ours) replays everything retained.
      let after = await findEventSeq(ctx.db, workspaceId, lastEventId);
      for (;;) {
        const page = await listEventsAfter(ctx.db, workspaceId, after, replayPageSize);
        for (const event of page.events) {
          replayed.add(event.id);
          cursor.record(event.id);
          if (!stream.send(event, event.id)) return;
        }
        if (page.events.length < replayPageSize) break;
        // A long replay waits for the client to read rather than tripping the slow-client cut-off.
        await stream.drained();
        after = page.lastSeq;
      }
    } catch (error) {
      request.log.error({ err: error }, 'feed replay failed');
      stream.end();
      return;
    }
  }
  const sendEvent = (event: EscalationEvent): boolean => {
    if (replayed.has(event.id) || cursor.has(event.id)) return !stream.isClosed;
    cursor.record(event.id);
    return stream.send(event, event.id);
  };
  subscription.goLive(sendEvent);
  // Redis was away (scale-out): events published meanwhile are read back from the event log.
  resyncOnReconnect(ctx.bus, request.log, (handler) => stream.onClose(handler), () => cursor.catchUp(sendEvent));
}
