import { createServer } from 'node:net';
import { generateText, NoContentGeneratedError, streamText } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicUpstream } from '../fakes/anthropic-upstream.js';
import type { FakeUpstream, ScriptedReply } from '../fakes/fake-upstream-server.js';
import { startOpenAIUpstream } from '../fakes/openai-upstream.js';
import { classify, ModelRelayError } from '../../src/models/model-errors.js';
import { resolveLanguageModel } from '../../src/models/model-registry.js';

let openai: FakeUpstream;
let anthropic: FakeUpstream;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startOpenAIUpstream(), startAnthropicUpstream()]);
});
afterAll(async () => {
  await Promise.all([openai.close(), anthropic.close()]);
});
beforeEach(() => {
  openai.reset();
  anthropic.reset();
});

const openaiModel = (baseUrl = openai.baseUrl) =>
  resolveLanguageModel({ provider: 'openai', model: 'gpt-4o', baseUrl, apiKey: 'sk-test' }, {}).model;
const anthropicModel = () =>
  resolveLanguageModel({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: anthropic.baseUrl, apiKey: 'k' }, {}).model;

/** Runs generateText and returns what it threw. */
async function generateFailure(model: ReturnType<typeof openaiModel>, options: { abortSignal?: AbortSignal; maxRetries?: number } = {}): Promise<unknown> {
  try {
    await generateText({ model, prompt: 'hi', maxRetries: options.maxRetries ?? 0, abortSignal: options.abortSignal });
  } catch (error) {
    return error;
  }
  throw new Error('expected generateText to fail');
}

/**
 * Runs streamText the way the service will: errors arrive as `error` parts (or, when
 * the body dies mid-way, as a rejection of the stream itself); aborts as an `abort` part
 * followed by a rejected `text`.
 */
async function streamFailure(model: ReturnType<typeof openaiModel>, options: { abortSignal?: AbortSignal; timeout?: { chunkMs: number } } = {}) {
  const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => {}, ...options });
  const texts: string[] = [];
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') texts.push(part.text);
      if (part.type === 'error') return { error: part.error, texts };
      if (part.type === 'abort') {
        const error = await result.text.then(() => undefined, (reason: unknown) => reason);
        return { error, texts };
      }
    }
  } catch (error) {
    return { error, texts };
  }
  throw new Error('expected the stream to fail');
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${address.port}/v1`;
}

describe('classify upstream failures', () => {
  it('turns a 500 into a short public message and keeps the body for logs only', async () => {
    openai.enqueue({ status: 500, body: { error: { message: 'internal: shard 7 exploded, prompt was "secret stuff"' } } });
    const relay = classify(await generateFailure(openaiModel()));
    expect(relay).toBeInstanceOf(ModelRelayError);
    expect(relay.kind).toBe('upstream-status');
    expect(relay.statusCode).toBe(500);
    expect(relay.retryable).toBe(true);
    expect(relay.publicMessage).toBe('the model provider answered 500');
    expect(relay.message).toBe(relay.publicMessage);
    expect(relay.publicMessage).not.toContain('shard');
    expect(relay.detail).toContain('shard 7 exploded');
  });

  it('recognises rate limiting (429)', async () => {
    openai.enqueue({ status: 429, headers: { 'retry-after': '3' } });
    const relay = classify(await generateFailure(openaiModel()));
    expect(relay.kind).toBe('rate-limited');
    expect(relay.statusCode).toBe(429);
    expect(relay.publicMessage).toContain('429');
  });

  it('recognises rejected credentials (401) as not retryable', async () => {
    anthropic.enqueue({ status: 401 });
    const relay = classify(await generateFailure(anthropicModel()));
    expect(relay.kind).toBe('unauthorized');
    expect(relay.retryable).toBe(false);
  });

  it('unwraps the retry wrapper when retries are on', async () => {
    const fast: ScriptedReply = { status: 503, headers: { 'retry-after-ms': '5' } };
    openai.enqueue(fast, fast);
    const error = await generateFailure(openaiModel(), { maxRetries: 1 });
    expect((error as Error).name).toBe('AI_RetryError');
    const relay = classify(error);
    expect(relay.kind).toBe('upstream-status');
    expect(relay.publicMessage).toBe('the model provider answered 503');
    expect(openai.requests).toHaveLength(2);
  });

  it('recognises a garbage (non-JSON) body', async () => {
    openai.enqueue({ garbage: true });
    const relay = classify(await generateFailure(openaiModel()));
    expect(relay.kind).toBe('invalid-response');
    expect(relay.detail).toContain('502 Bad Gateway (not JSON)');
  });

  it('recognises a garbage stream frame (OpenAI)', async () => {
    openai.enqueue({ garbage: true });
    const { error } = await streamFailure(openaiModel());
    expect(classify(error).kind).toBe('invalid-response');
  });

  it('recognises a garbage first stream frame (Anthropic), which the SDK reports as a made-up 500', async () => {
    anthropic.enqueue({ garbage: true });
    const { error } = await streamFailure(anthropicModel());
    const relay = classify(error);
    expect(relay.kind).toBe('invalid-response');
    expect(relay.statusCode).toBeUndefined();
  });

  it.each([
    ['OpenAI', () => openai, () => openaiModel()],
    ['Anthropic', () => anthropic, () => anthropicModel()],
  ])('recognises a stream cut mid-way (%s)', async (_name, upstream, model) => {
    upstream().enqueue({ text: 'one two three four five six seven eight', truncate: true });
    const { error, texts } = await streamFailure(model());
    expect(texts.length).toBeGreaterThan(0);
    const relay = classify(error);
    expect(relay.kind).toBe('interrupted');
    expect(relay.publicMessage).toBe('the connection to the model provider broke off');
    // undici's fetch says "terminated"; Node's http client (modelFetch) an ECONNRESET "aborted".
    expect(relay.detail).toMatch(/terminated|ECONNRESET/);
  });

  it('recognises a body cut mid-way (not streamed)', async () => {
    openai.enqueue({ text: 'a fairly long answer that will be cut', truncate: true });
    expect(classify(await generateFailure(openaiModel())).kind).toBe('interrupted');
  });

  it('recognises a refused connection', async () => {
    const relay = classify(await generateFailure(openaiModel(await closedPortUrl())));
    expect(relay.kind).toBe('unreachable');
    expect(relay.publicMessage).toBe('could not reach the model provider');
    expect(relay.detail).toContain('ECONNREFUSED');
  });

  it('recognises a timeout from AbortSignal.timeout', async () => {
    openai.enqueue({ text: 'too late', delayMs: 3000 });
    const started = Date.now();
    const relay = classify(await generateFailure(openaiModel(), { abortSignal: AbortSignal.timeout(150) }));
    expect(relay.kind).toBe('timeout');
    expect(relay.publicMessage).toBe('the model provider did not answer in time');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('recognises a stalled stream stopped by a chunk timeout', async () => {
    openai.enqueue({ text: 'one two three four five', stallAfterChunks: 2 });
    const { error, texts } = await streamFailure(openaiModel(), { timeout: { chunkMs: 200 } });
    expect(texts).toEqual(['one ']);
    expect(classify(error).kind).toBe('timeout');
  });

  it('tells a cancelled call from a timeout', async () => {
    openai.enqueue({ text: 'never mind', delayMs: 3000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const relay = classify(await generateFailure(openaiModel(), { abortSignal: controller.signal }));
    expect(relay.kind).toBe('aborted');
    expect(relay.retryable).toBe(false);
  });

  it('maps no-content and unknown errors', () => {
    expect(classify(new NoContentGeneratedError()).kind).toBe('no-content');
    const unknown = classify(new Error('database on fire'));
    expect(unknown.kind).toBe('unknown');
    expect(unknown.publicMessage).toBe('the model call failed');
    expect(unknown.detail).toContain('database on fire');
    expect(classify(unknown)).toBe(unknown);
  });
});

describe('fake upstream lifecycle', () => {
  it('closes promptly while a stream is stalled, delivering chunks with delays first', async () => {
    const upstream = await startOpenAIUpstream();
    upstream.enqueue({ text: 'a b c d e f', chunkDelayMs: 30, stallAfterChunks: 3 });
    const model = openaiModel(upstream.baseUrl);
    const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => {} });
    const seen: string[] = [];
    // A body cut by the server surfaces as a rejection of the stream itself, not an error part.
    const reading = (async () => {
      try {
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') seen.push(part.text);
          if (part.type === 'error') return part.error;
        }
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    const started = Date.now();
    while (seen.length < 2 && Date.now() - started < 2000) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(['a ', 'b ']);
    await upstream.close();
    const error = await reading;
    expect(classify(error).kind).toBe('interrupted');
  });
});
