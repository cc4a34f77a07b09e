/** One Server-Sent Event: its `data` (lines joined by "\n"), and `id`/`event` when sent. */
export interface SseEvent {
  data: string;
  id?: string;
  event?: string;
}

/**
 * Parses an SSE body (the WHATWG event-stream format) into events as they arrive.
 * Comment lines (`: ping`) are skipped, CRLF/CR/LF line ends are all accepted, and a
 * frame cut off by the end of the stream is dropped, as the format requires.
 * Cancelling the iteration cancels the body.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  let event: string | undefined;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const end = lineEnd(buffer);
        if (end === null) break;
        const line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end.length);
        if (line === '') {
          if (data.length > 0) yield { data: data.join('\n'), ...(id === undefined ? {} : { id }), ...(event === undefined ? {} : { event }) };
          data = [];
          event = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'event') event = value;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Where the first complete line of `text` ends. A trailing lone "\r" is not yet
 * a line end: the "\n" of a CRLF may be in the next chunk.
 */
function lineEnd(text: string): { index: number; length: number } | null {
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\n') return { index: i, length: 1 };
    if (char === '\r') {
      if (i + 1 === text.length) return null;
      return { index: i, length: text[i + 1] === '\n' ? 2 : 1 };
    }
  }
  return null;
}
