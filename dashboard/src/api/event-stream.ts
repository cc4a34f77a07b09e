import { authHeaders, notifyUnauthorized } from './api-client';
import type { Session } from './session-store';

export interface StreamEvent {
  id: string | null;
  event: string;
  data: string;
}

export type StreamState = 'connecting' | 'live' | 'reconnecting';

export interface StreamOptions {
  session: Pick<Session, 'token' | 'workspaceId'>;
  path: string;
  onEvent: (event: StreamEvent) => void;
  onState?: (state: StreamState) => void;
}

/**
 * Parses a text/event-stream body: frames separated by a blank line, `data:`
 * lines joined by newlines, `id:` remembered for Last-Event-ID, comments ignored.
 */
export function parseFrames(buffer: string): { frames: StreamEvent[]; rest: string } {
  const frames: StreamEvent[] = [];
  const normalized = buffer.replace(/\r\n?/g, '\n');
  const parts = normalized.split('\n\n');
  const rest = parts.pop() ?? '';
  for (const part of parts) {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of part.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
      else if (field === 'event') event = value;
    }
    if (data.length > 0) frames.push({ id, event, data: data.join('\n') });
  }
  return { frames, rest };
}

/**
 * An SSE subscription over fetch(): EventSource cannot send the Authorization
 * and X-Workspace-Id headers, so the stream is read and parsed here, and
 * reopened with Last-Event-ID after a drop (backing off up to 10 s).
 * Returns a function that closes it.
 */
export function openEventStream(options: StreamOptions): () => void {
  const controller = new AbortController();
  let lastEventId: string | null = null;
  let delayMs = 500;

  const run = async (): Promise<void> => {
    while (!controller.signal.aborted) {
      options.onState?.(lastEventId === null ? 'connecting' : 'reconnecting');
      try {
        const headers: Record<string, string> = { ...authHeaders(options.session), accept: 'text/event-stream' };
        if (lastEventId) headers['last-event-id'] = lastEventId;
        const response = await fetch(`/api/v1${options.path}`, { headers, signal: controller.signal, cache: 'no-store' });
        if (response.status === 401) {
          notifyUnauthorized();
          return;
        }
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        options.onState?.('live');
        delayMs = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          const { frames, rest } = parseFrames(buffer);
          buffer = rest;
          for (const frame of frames) {
            if (frame.id) lastEventId = frame.id;
            options.onEvent(frame);
          }
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      if (controller.signal.aborted) return;
      options.onState?.('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 10_000);
    }
  };
  void run();
  return () => controller.abort();
}
