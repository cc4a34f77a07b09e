/**
 * The fake OpenAI-compatible upstream for bench/agent.ts, in its own process.
 * argv[2]: "answer" (a short reply at once), "stall" (two stream frames, then silence) or
 * "timed" (a stream of 50 chunks 10 ms apart, each carrying the moment it was sent).
 * Prints { url } when listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startOpenAIUpstream } from '../test/fakes/openai-upstream.js';

const mode = process.argv[2] ?? 'answer';

/**
 * Each chunk's text is `t<microseconds> `, the monotonic clock (process.hrtime) when it
 * was written: the clock is the machine's, so a reader in another process can tell
 * how long the chunk took to reach it.
 */
async function timedUpstream(chunks: number, gapMs: number): Promise<string> {
  const frame = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame({ role: 'assistant', content: '' }));
      for (let i = 0; i < chunks; i++) {
        await new Promise((resolve) => setTimeout(resolve, gapMs));
        res.write(frame({ content: `t${process.hrtime.bigint() / 1000n} ` }));
      }
      res.write(frame({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

if (mode === 'timed') {
  process.stdout.write(`${JSON.stringify({ url: await timedUpstream(50, 10) })}\n`);
} else {
  const upstream = await startOpenAIUpstream();
  upstream.setDefaultReply(mode === 'stall' ? { text: 'hello there friend', stallAfterChunks: 2 } : { text: 'Hello from the upstream.' });
  // The fake records every request; forget them often so a long run does not grow memory.
  setInterval(() => upstream.reset(), 200).unref();
  process.stdout.write(`${JSON.stringify({ url: upstream.url })}\n`);
}
