import { ParleyError, abortedError, networkError } from './errors.js';
import { backoffDelay, sleep } from './retry.js';
import { parseSse } from './sse.js';
import type { Transport } from './transport.js';
import { isRecord, parseJson } from './transport.js';
import type { EscalationEvent, EscalationPoll, EscalationStatus } from './types.js';

export interface WatchEscalationOptions {
  /** Only operator messages created after this ISO timestamp (default: the whole history). */
  since?: string;
  signal?: AbortSignal;
  /** Pause between polls while the stream cannot be opened (default 2000 ms). */
  pollIntervalMs?: number;
}

export interface WatchEscalationCallbacks extends WatchEscalationOptions {
  onMessage?: (message: Extract<EscalationEvent, { type: 'human-message' }>['message']) => void | Promise<void>;
  onStatus?: (status: EscalationStatus, operatorName: string | undefined) => void | Promise<void>;
}

/** Gives up the stream-then-poll cycle only on answers that no retry can change. */
const fatalStatuses = new Set([401, 403, 404, 422]);

/**
 * The end-user side of an escalation as one event sequence that survives drops:
 * it streams GET /agent/escalation/:id/stream, and whenever the stream fails or ends it
 * catches up through the poll route and reconnects with `since` = the createdAt of the
 * last message received (section 4). Messages are de-duplicated by id, a status is
 * reported only when it changes, and the sequence ends after status `resolved`.
 */
export async function* escalationEvents(transport: Transport, escalationId: string, options: WatchEscalationOptions = {}): AsyncGenerator<EscalationEvent, void, undefined> {
  const { signal } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const path = `/agent/escalation/${encodeURIComponent(escalationId)}`;
  const seen = new Set<string>();
  let since = options.since;
  let status: EscalationStatus | undefined;
  let failures = 0;

  const accept = function* (event: EscalationEvent): Generator<EscalationEvent, boolean> {
    if (event.type === 'human-message') {
      if (seen.has(event.message.id)) return false;
      seen.add(event.message.id);
      if (since === undefined || event.message.createdAt > since) since = event.message.createdAt;
      yield event;
      return false;
    }
    if (event.status !== status) {
      status = event.status;
      yield event;
    }
    return event.status === 'resolved';
  };

  for (;;) {
    if (signal?.aborted) throw abortedError();
    try {
      const response = await transport.fetch('GET', `${path}/stream`, { query: { since }, headers: { accept: 'text/event-stream' }, signal });
      if (!response.ok) throw await transport.failure(response);
      if (response.body === null) throw networkError('the escalation stream has no body');
      for await (const frame of parseSse(response.body)) {
        const event = parseJson(frame.data);
        if (!isEscalationEvent(event)) continue;
        failures = 0;
        if (yield* accept(event)) return;
      }
      throw networkError('the escalation stream ended');
    } catch (error) {
      if (signal?.aborted) throw abortedError();
      if (error instanceof ParleyError && fatalStatuses.has(error.status)) throw error;
      failures += 1;
    }

    // Catch up through the poll route: it covers the gap and works when streaming cannot.
    try {
      const poll = await transport.jsonOnce<EscalationPoll>('GET', path, { query: { since }, signal });
      for (const message of [...poll.messages].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))) {
        if (message.role !== 'human_agent') continue;
        yield* accept({ type: 'human-message', message: { id: message.id, content: message.content, createdAt: message.createdAt } });
      }
      if (yield* accept({ type: 'status', status: poll.status })) return;
    } catch (error) {
      if (signal?.aborted) throw abortedError();
      if (error instanceof ParleyError && fatalStatuses.has(error.status)) throw error;
    }
    // The first reconnect is quick; repeated failures slow down to the poll interval.
    const delay = Math.min(pollIntervalMs, backoffDelay({ ...transport.retry, maxDelayMs: pollIntervalMs }, failures));
    await sleep(delay, signal);
  }
}

/**
 * Callback form of escalationEvents. Resolves when the escalation is resolved, or
 * quietly when `signal` aborts (stopping the watch is not an error); rejects on 401/404.
 */
export async function watchEscalation(transport: Transport, escalationId: string, options: WatchEscalationCallbacks): Promise<void> {
  try {
    for await (const event of escalationEvents(transport, escalationId, options)) {
      if (event.type === 'human-message') await options.onMessage?.(event.message);
      else await options.onStatus?.(event.status, event.operatorName);
    }
  } catch (error) {
    if (options.signal?.aborted && error instanceof ParleyError && error.code === 'ABORTED') return;
    throw error;
  }
}

function isEscalationEvent(value: unknown): value is EscalationEvent {
  if (!isRecord(value)) return false;
  if (value['type'] === 'status') return typeof value['status'] === 'string';
  if (value['type'] === 'human-message') {
    const message = value['message'];
    return isRecord(message) && typeof message['id'] === 'string' && typeof message['createdAt'] === 'string';
  }
  return false;
}
