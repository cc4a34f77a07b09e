/**
 * The fake OpenAI-compatible upstream for bench/agent.ts, in its own process.
 * argv[2]: "answer" (a short reply at once) or "stall" (two stream frames, then silence).
 * Prints { url } when listening.
 */
import { startOpenAIUpstream } from '../test/fakes/openai-upstream.js';

const mode = process.argv[2] ?? 'answer';
const upstream = await startOpenAIUpstream();
upstream.setDefaultReply(mode === 'stall' ? { text: 'hello there friend', stallAfterChunks: 2 } : { text: 'Hello from the upstream.' });
// The fake records every request; forget them often so a long run does not grow memory.
setInterval(() => upstream.reset(), 200).unref();
process.stdout.write(`${JSON.stringify({ url: upstream.url })}\n`);
