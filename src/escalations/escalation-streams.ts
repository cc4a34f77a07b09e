import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { channels } from '../events/event-bus.js';
import { notFound } from '../http/errors.js';
import { SseStream } from '../sse/sse-writer.js';
import type { EscalationEvent, EscalationSignal } from './escalation-event.js';
import { findEventSeq, listEventsAfter } from './escalation-event-log.js';
import { findEscalationInProject, listEscalationMessages } from './escalation-repository.js';

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
  subscription.goLive((signal) => {
    if (stream.isClosed) return;
    if (signal.kind === 'human-message') {
      if (sent.has(signal.message.id) || (since !== undefined && signal.message.createdAt <= since)) return;
      sent.add(signal.message.id);
      stream.send({ type: 'human-message', message: signal.message });
      return;
    }
    // A change the snapshot already showed (it arrived while the backlog was read) is not repeated.
    if (signal.status === status) return;
    status = signal.status;
    stream.send({ type: 'status', status: signal.status, ...(signal.operatorName ? { operatorName: signal.operatorName } : {}) });
    if (status === 'resolved') stream.end();
  });
}

/** GET /escalations/stream: every escalation event of the workspace; Last-Event-ID replays. */
export async function serveWorkspaceFeed(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, workspaceId: string): Promise<void> {
  const header = request.headers['last-event-id'];
  const lastEventId = typeof header === 'string' && header.trim() !== '' ? header.trim().slice(0, 64) : null;
  const subscription = await subscribeBuffered<EscalationEvent>(ctx, channels.workspaceFeed(workspaceId));
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
  subscription.goLive((event) => {
    if (replayed.has(event.id)) return;
    stream.send(event, event.id);
  });
}
