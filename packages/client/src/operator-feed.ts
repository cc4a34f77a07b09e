import { ParleyError, abortedError, networkError } from './errors.js';
import { backoffDelay, sleep } from './retry.js';
import { parseSse } from './sse.js';
import type { Transport } from './transport.js';
import { isRecord, parseJson } from './transport.js';
import type { FeedEvent } from './types.js';

export interface OperatorFeedOptions {
  /** Resume after this event id (sent as Last-Event-ID), e.g. one saved before a restart. */
  lastEventId?: string;
  signal?: AbortSignal;
  /** Longest pause between reconnects (default 5000 ms). */
  maxReconnectDelayMs?: number;
}

const fatalStatuses = new Set([401, 403, 404, 422]);

/**
 * GET /escalations/stream as an endless event sequence: after a drop it reconnects
 * with backoff and sends Last-Event-ID = the id of the last event received, so the
 * server can replay what was missed. Events whose id was already delivered are skipped.
 * It ends only when `signal` aborts (then it throws ABORTED) or on 401/403/404.
 */
export async function* operatorFeed(transport: Transport, options: OperatorFeedOptions = {}): AsyncGenerator<FeedEvent, void, undefined> {
  const { signal } = options;
  let lastEventId = options.lastEventId;
  const delivered = new Set<string>();
  let failures = 0;
  for (;;) {
    if (signal?.aborted) throw abortedError();
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      const response = await transport.fetch('GET', '/escalations/stream', { headers, signal });
      if (!response.ok) throw await transport.failure(response);
      if (response.body === null) throw networkError('the feed has no body');
      for await (const frame of parseSse(response.body)) {
        const data = parseJson(frame.data);
        if (!isRecord(data) || typeof data['type'] !== 'string') continue;
        failures = 0;
        if (frame.id !== undefined && frame.id !== '') {
          if (delivered.has(frame.id)) continue;
          delivered.add(frame.id);
          // Only the recent ids matter for replays; keep the memory of a long feed bounded.
          if (delivered.size > 1_000) delivered.delete(delivered.values().next().value as string);
          lastEventId = frame.id;
        }
        yield { id: frame.id, data: data as FeedEvent['data'] };
      }
      throw networkError('the feed ended');
    } catch (error) {
      if (signal?.aborted) throw abortedError();
      if (error instanceof ParleyError && fatalStatuses.has(error.status)) throw error;
      failures += 1;
    }
    const cap = options.maxReconnectDelayMs ?? 5_000;
    await sleep(Math.min(cap, backoffDelay({ ...transport.retry, maxDelayMs: cap }, failures)), signal);
  }
}
