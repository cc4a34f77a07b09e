import { generateText, type ModelMessage, streamText } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../fakes/fake-upstream-server.js';
import { startOpenAIUpstream } from '../fakes/openai-upstream.js';
import { resolveLanguageModel } from '../../src/models/model-registry.js';
import { parleyTools } from './tool-fixtures.js';

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream();
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => upstream.reset());

/** Both providers speak Chat Completions; openai-compatible is given the base URL without /v1. */
const variants = [
  {
    name: 'openai (chat completions)',
    path: '/v1/chat/completions',
    resolve: () => resolveLanguageModel({ provider: 'openai', model: 'gpt-4o', baseUrl: upstream.baseUrl, apiKey: 'sk-test' }, {}),
    authorization: 'Bearer sk-test',
  },
  {
    name: 'openai-compatible',
    path: '/chat/completions',
    resolve: () =>
      resolveLanguageModel({ provider: 'openai-compatible', model: 'llama3.1:8b', baseUrl: upstream.url, apiKey: 'local-key' }, {}),
    authorization: 'Bearer local-key',
  },
] as const;

interface ChatBody {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: Array<Record<string, unknown>>;
  tools?: Array<{ type: string; function: { name: string; parameters: unknown } }>;
}

function bodyOf(index: number): ChatBody {
  const request = upstream.requests[index];
  if (request === undefined) throw new Error(`no request #${index}`);
  return request.body as ChatBody;
}

describe.each(variants)('$name against the fake Chat Completions server', (variant) => {
  it('generates text and reports usage (not streamed)', async () => {
    upstream.enqueue({ text: 'Hello from the fake', usage: { inputTokens: 21, outputTokens: 4 } });
    const { model } = variant.resolve();
    const result = await generateText({ model, system: 'Be brief.', prompt: 'Say hello', maxRetries: 0 });

    expect(result.text).toBe('Hello from the fake');
    expect(result.usage.inputTokens).toBe(21);
    expect(result.usage.outputTokens).toBe(4);
    expect(result.usage.totalTokens).toBe(25);
    const request = upstream.lastRequest();
    expect(request.path).toBe(variant.path);
    expect(request.headers.authorization).toBe(variant.authorization);
    const body = bodyOf(0);
    expect(body.stream).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello' },
    ]);
  });

  it('streams text in chunks and takes usage from the final chunk', async () => {
    upstream.enqueue({ text: 'one two three four', usage: { inputTokens: 8, outputTokens: 4 } });
    const { model } = variant.resolve();
    const result = streamText({ model, prompt: 'Count', maxRetries: 0, onError: () => {} });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);

    expect(deltas).toEqual(['one ', 'two ', 'three ', 'four']);
    expect((await result.usage).inputTokens).toBe(8);
    expect((await result.usage).outputTokens).toBe(4);
    const body = bodyOf(0);
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it('returns tool calls with parsed arguments (not streamed) and sends the tools on the wire', async () => {
    upstream.enqueue({ toolCalls: [{ name: 'navigate', args: { screen: 'orders', params: { tab: 'open' } }, id: 'call_nav' }] });
    const { model } = variant.resolve();
    const result = await generateText({ model, prompt: 'take me to my orders', tools: parleyTools, maxRetries: 0 });

    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toEqual([
      expect.objectContaining({ toolCallId: 'call_nav', toolName: 'navigate', input: { screen: 'orders', params: { tab: 'open' } } }),
    ]);
    const tools = bodyOf(0).tools ?? [];
    expect(tools.map((entry) => entry.function.name)).toEqual(['navigate', 'escalate']);
    expect(tools[0]?.function.parameters).toMatchObject({ required: ['screen'] });
  });

  it('assembles streamed tool-call argument deltas', async () => {
    upstream.enqueue({ text: 'Sure.', toolCalls: [{ name: 'escalate', args: { reason: 'user asked for a person' } }] });
    const { model } = variant.resolve();
    const result = streamText({ model, prompt: 'human please', tools: parleyTools, maxRetries: 0, onError: () => {} });
    const inputDeltas: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-input-delta') inputDeltas.push(part.delta);
    }
    expect(inputDeltas.length).toBeGreaterThan(1);
    expect(await result.text).toBe('Sure.');
    expect(await result.toolCalls).toEqual([
      expect.objectContaining({ toolName: 'escalate', input: { reason: 'user asked for a person' } }),
    ]);
  });

  it.each([false, true])('sends the tool result back in the wire format (streamed: %s)', async (streamed) => {
    upstream.enqueue(
      { toolCalls: [{ name: 'navigate', args: { screen: 'orders' }, id: 'call_1' }] },
      { text: 'You are on orders now.' },
    );
    const { model } = variant.resolve();
    const first = await generateText({ model, prompt: 'take me to my orders', tools: parleyTools, maxRetries: 0 });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'take me to my orders' },
      ...first.response.messages,
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'navigate', output: { type: 'json', value: { status: 'completed' } } }],
      },
    ];
    const text = streamed
      ? await streamText({ model, messages, tools: parleyTools, maxRetries: 0, onError: () => {} }).text
      : (await generateText({ model, messages, tools: parleyTools, maxRetries: 0 })).text;

    expect(text).toBe('You are on orders now.');
    const wire = bodyOf(1).messages;
    expect(wire[0]).toEqual({ role: 'user', content: 'take me to my orders' });
    expect(wire[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'navigate', arguments: '{"screen":"orders"}' } }],
    });
    expect(wire[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"status":"completed"}' });
  });
});

describe('the fake Chat Completions server', () => {
  it('answers 404 for other paths, records the request, and 500s when its script runs out', async () => {
    const wrongPath = await fetch(`${upstream.url}/v1/completions`, { method: 'POST', body: '{}' });
    expect(wrongPath.status).toBe(404);
    const unscripted = await fetch(`${upstream.baseUrl}/chat/completions`, { method: 'POST', body: '{"model":"x","messages":[]}' });
    expect(unscripted.status).toBe(500);
    expect(await unscripted.text()).toContain('no scripted reply left');
    expect(upstream.requests.map((request) => request.path)).toEqual(['/v1/completions', '/v1/chat/completions']);
  });

  it('uses a function of the request as default reply', async () => {
    upstream.setDefaultReply((request) => ({ text: `you sent ${(request.body as ChatBody).messages.length} messages` }));
    try {
      const { model } = variants[0].resolve();
      const result = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      expect(result.text).toBe('you sent 1 messages');
    } finally {
      upstream.setDefaultReply(undefined);
    }
  });
});
