import { describe, expect, it } from 'vitest';
import { parseSse, type SseEvent } from '../../packages/client/src/index.js';

/** A body that delivers the given chunks (strings) one by one. */
function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(body(chunks))) events.push(event);
  return events;
}

describe('parseSse', () => {
  it('parses data frames separated by blank lines and skips ping comments', async () => {
    const events = await collect(['data: {"type":"session"}\n\n: ping\n\ndata: {"type":"done"}\n\n']);
    expect(events.map((event) => event.data)).toEqual(['{"type":"session"}', '{"type":"done"}']);
  });

  it('reassembles frames and multi-byte characters split across chunks', async () => {
    const text = 'data: {"content":"héllo ✓"}\n\n';
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    for await (const event of parseSse(stream)) events.push(event);
    expect(events).toEqual([{ data: '{"content":"héllo ✓"}' }]);
  });

  it('accepts CRLF and CR line ends, even with CRLF split between chunks', async () => {
    const events = await collect(['data: a\r', '\n\r', '\ndata: b\r\rdata: c\n\n']);
    expect(events.map((event) => event.data)).toEqual(['a', 'b', 'c']);
  });

  it('joins multi-line data and keeps the last id and the event name', async () => {
    const events = await collect(['id: 7\nevent: escalation\ndata: one\ndata: two\n\ndata: three\n\n']);
    expect(events).toEqual([
      { id: '7', event: 'escalation', data: 'one\ntwo' },
      { id: '7', data: 'three' },
    ]);
  });

  it('drops a frame cut off by the end of the stream', async () => {
    const events = await collect(['data: complete\n\ndata: {"cut":']);
    expect(events.map((event) => event.data)).toEqual(['complete']);
  });

  it('cancels the body when the consumer stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: x\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of parseSse(stream)) {
      expect(event.data).toBe('x');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
