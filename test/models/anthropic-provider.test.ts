import { generateText, type ModelMessage, streamText } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicUpstream } from '../fakes/anthropic-upstream.js';
import type { FakeUpstream } from '../fakes/fake-upstream-server.js';
import { resolveLanguageModel } from '../../src/models/model-registry.js';
import { parleyTools } from './tool-fixtures.js';

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startAnthropicUpstream();
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => upstream.reset());

// A model name the SDK knows, so it does not warn about guessing max_tokens.
const resolve = () =>
  resolveLanguageModel({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: upstream.baseUrl }, { anthropicApiKey: 'ant-test' });

interface MessagesBody {
  model: string;
  stream?: boolean;
  system?: Array<{ type: string; text: string }>;
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name: string; input_schema: unknown }>;
}

function bodyOf(index: number): MessagesBody {
  const request = upstream.requests[index];
  if (request === undefined) throw new Error(`no request #${index}`);
  return request.body as MessagesBody;
}

describe('anthropic against the fake Messages API server', () => {
  it('generates text and reports usage (not streamed)', async () => {
    upstream.enqueue({ text: 'Hello from Claude', usage: { inputTokens: 30, outputTokens: 3 } });
    const result = await generateText({ model: resolve().model, system: 'Be brief.', prompt: 'Say hello', maxRetries: 0 });

    expect(result.text).toBe('Hello from Claude');
    expect(result.usage.inputTokens).toBe(30);
    expect(result.usage.outputTokens).toBe(3);
    expect(result.usage.totalTokens).toBe(33);
    const request = upstream.lastRequest();
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('ant-test');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    const body = bodyOf(0);
    expect(body.model).toBe('claude-sonnet-4-5');
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }]);
  });

  it('streams text deltas and takes usage from message_start and message_delta', async () => {
    upstream.enqueue({ text: 'one two three', usage: { inputTokens: 12, outputTokens: 3 } });
    const result = streamText({ model: resolve().model, prompt: 'Count', maxRetries: 0, onError: () => {} });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);

    expect(deltas).toEqual(['one ', 'two ', 'three']);
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(12);
    expect(usage.outputTokens).toBe(3);
    expect(bodyOf(0).stream).toBe(true);
  });

  it('returns tool_use blocks as tool calls (not streamed) and sends tools with input_schema', async () => {
    upstream.enqueue({ text: 'Opening it.', toolCalls: [{ name: 'navigate', args: { screen: 'orders' }, id: 'toolu_nav' }] });
    const result = await generateText({ model: resolve().model, prompt: 'take me to my orders', tools: parleyTools, maxRetries: 0 });

    expect(result.text).toBe('Opening it.');
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toEqual([expect.objectContaining({ toolCallId: 'toolu_nav', toolName: 'navigate', input: { screen: 'orders' } })]);
    const tools = bodyOf(0).tools ?? [];
    expect(tools.map((entry) => entry.name)).toEqual(['navigate', 'escalate']);
    expect(tools[1]?.input_schema).toMatchObject({ required: ['reason'] });
  });

  it('assembles streamed input_json_delta pieces', async () => {
    upstream.enqueue({ toolCalls: [{ name: 'escalate', args: { reason: 'the user asked for a person' } }] });
    const result = streamText({ model: resolve().model, prompt: 'human please', tools: parleyTools, maxRetries: 0, onError: () => {} });
    const inputDeltas: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-input-delta') inputDeltas.push(part.delta);
    }
    expect(inputDeltas.length).toBeGreaterThan(1);
    expect(await result.toolCalls).toEqual([expect.objectContaining({ toolName: 'escalate', input: { reason: 'the user asked for a person' } })]);
    expect(await result.finishReason).toBe('tool-calls');
  });

  it.each([false, true])('sends the tool result back as a tool_result block (streamed: %s)', async (streamed) => {
    upstream.enqueue({ toolCalls: [{ name: 'navigate', args: { screen: 'orders' }, id: 'toolu_1' }] }, { text: 'Done.' });
    const model = resolve().model;
    const first = await generateText({ model, prompt: 'take me to my orders', tools: parleyTools, maxRetries: 0 });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'take me to my orders' },
      ...first.response.messages,
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'navigate', output: { type: 'json', value: { status: 'completed' } } }],
      },
    ];
    const text = streamed
      ? await streamText({ model, messages, tools: parleyTools, maxRetries: 0, onError: () => {} }).text
      : (await generateText({ model, messages, tools: parleyTools, maxRetries: 0 })).text;

    expect(text).toBe('Done.');
    const wire = bodyOf(1).messages;
    expect(wire[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'navigate', input: { screen: 'orders' } }],
    });
    expect(wire[2]).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"status":"completed"}' }],
    });
  });
});
