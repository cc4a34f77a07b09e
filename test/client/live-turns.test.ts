import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyClient, ParleyError, type Action, type StreamFrame } from '../../packages/client/src/index.js';
import { testDialects } from '../support/harness.js';
import { countingClient, fakeModelTenant, startLiveFixture, startSabotageProxy, type LiveFixture } from './client-support.js';

const navigate = (screen: string, params?: Record<string, unknown>) => ({ name: 'navigate', args: params ? { screen, params } : { screen } });

async function collect(stream: AsyncIterable<StreamFrame>): Promise<StreamFrame[]> {
  const frames: StreamFrame[] = [];
  for await (const frame of stream) frames.push(frame);
  return frames;
}

describe.each(testDialects())('client SDK turns against a live server (%s)', (dialect) => {
  let fixture: LiveFixture;
  beforeAll(async () => {
    fixture = await startLiveFixture(dialect);
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('runTurn executes actions over several hops, reports each result with hop 1, 2 and stops when done', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue(
      { text: 'Opening your orders.', toolCalls: [navigate('orders')] },
      { toolCalls: [navigate('order', { id: '42' })] },
      { text: 'Here is order 42.' },
    );
    const { client, sent } = countingClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey });
    let screen = 'home';
    const executed: Array<{ action: Action; hop: number }> = [];

    const transcript = await client.runTurn('show me my last order', {
      context: () => ({ currentScreen: screen }),
      executeAction: (action, { hop }) => {
        executed.push({ action, hop });
        screen = String(action.payload['screen']);
        return { success: true, summary: `now on ${screen}` };
      },
    });

    expect(sent).toEqual(['POST /agent/message', 'POST /agent/continue', 'POST /agent/continue']);
    expect(executed.map((entry) => [entry.action.type, entry.action.payload, entry.hop])).toEqual([
      ['navigate', { screen: 'orders' }, 1],
      ['navigate', { screen: 'order', params: { id: '42' } }, 2],
    ]);
    expect(transcript.sessionId).toMatch(/^ses_/);
    expect(transcript.hops).toBe(2);
    expect(transcript.steps.map((step) => step.hop)).toEqual([0, 1, 2]);
    expect(transcript.steps[0]?.actions[0]?.result).toEqual({ actionId: executed[0]?.action.id, type: 'navigate', success: true, summary: 'now on orders' });
    expect(transcript.steps[2]?.actions).toEqual([]);
    expect(transcript.text).toBe('Opening your orders.\n\nHere is order 42.');
    expect(transcript.unexecutedActions).toEqual([]);
    // The model saw each outcome, and the context followed the navigation.
    const lastRequest = JSON.stringify(fixture.upstream.lastRequest().body);
    expect(lastRequest).toContain('now on order');
  });

  it('runTurn reports a throwing action as a failure and still continues the turn', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ toolCalls: [navigate('nowhere')] }, { text: 'That screen does not exist.' });
    const client = new ParleyClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey });
    const transcript = await client.runTurn('go nowhere', {
      context: { currentScreen: 'home' },
      executeAction: () => {
        throw new Error('no such screen');
      },
    });
    expect(transcript.steps[0]?.actions[0]?.result).toMatchObject({ success: false, error: 'no such screen' });
    expect(transcript.hops).toBe(1);
    expect(JSON.stringify(fixture.upstream.lastRequest().body)).toContain('no such screen');
  });

  it('runTurn stops at the server’s hop bound even though the model keeps asking for actions', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture, { maxHops: 3 });
    fixture.upstream.setDefaultReply({ toolCalls: [navigate('orders')] });
    try {
      const { client, sent } = countingClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey });
      let executions = 0;
      const transcript = await client.runTurn('loop forever', {
        context: { currentScreen: 'home' },
        executeAction: () => {
          executions += 1;
          return { success: true };
        },
      });
      expect(transcript.hops).toBe(3);
      expect(sent.filter((line) => line === 'POST /agent/continue')).toHaveLength(3);
      expect(executions).toBe(3);
      expect(transcript.steps.at(-1)?.message.actions).toEqual(transcript.unexecutedActions);
    } finally {
      fixture.upstream.setDefaultReply(undefined);
    }
  });

  it('streamMessage yields the section-6 frames of a streamed reply', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Taking you to your orders now.', toolCalls: [navigate('orders')] });
    const client = new ParleyClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey });
    const stream = client.streamMessage({ content: 'orders please', context: { currentScreen: 'home' } });
    const frames = await collect(stream);

    expect(stream.via).toBe('stream');
    expect(frames[0]).toEqual({ type: 'session', sessionId: expect.stringMatching(/^ses_/) });
    const deltas = frames.filter((frame): frame is Extract<StreamFrame, { type: 'text-delta' }> => frame.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((frame) => frame.content).join('')).toBe('Taking you to your orders now.');
    expect(frames.filter((frame) => frame.type === 'tool-call')).toEqual([{ type: 'tool-call', action: { id: expect.any(String), type: 'navigate', payload: { screen: 'orders' } } }]);
    expect(frames.at(-1)).toEqual({ type: 'done', messageId: expect.any(String), usage: { tokensUsed: expect.any(Number) } });
  });

  it('streamMessage falls back to POST /agent/message when the connection drops before any frame', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Here you go.', toolCalls: [navigate('orders')] });
    const proxy = await startSabotageProxy(fixture.server.url, 'drop-before-first-frame');
    try {
      const { client, sent } = countingClient({ baseUrl: proxy.url, apiKey: tenant.sdkKey });
      const stream = client.streamMessage({ content: 'orders please', context: { currentScreen: 'home' } });
      const frames = await collect(stream);
      expect(stream.via).toBe('message');
      expect(sent).toEqual(['POST /agent/message/stream', 'POST /agent/message']);
      expect(frames.map((frame) => frame.type)).toEqual(['session', 'text-delta', 'tool-call', 'done']);
      expect(frames[1]).toEqual({ type: 'text-delta', content: 'Here you go.' });
      expect(frames[2]).toMatchObject({ action: { type: 'navigate', payload: { screen: 'orders' } } });
    } finally {
      await proxy.close();
    }
  });

  it('streamMessage falls back to POST /agent/message when the stream answers 502 before any frame', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ status: 500 }, { text: 'Second time lucky.' });
    const { client, sent } = countingClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey });
    const stream = client.streamMessage({ content: 'hello' });
    const frames = await collect(stream);
    expect(sent).toEqual(['POST /agent/message/stream', 'POST /agent/message']);
    expect(frames.find((frame) => frame.type === 'text-delta')).toEqual({ type: 'text-delta', content: 'Second time lucky.' });
  });

  it('streamMessage does not fall back on a 422: the request itself is wrong', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { client, sent } = countingClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey });
    const error = await collect(client.streamMessage({ content: '' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    expect(sent).toEqual(['POST /agent/message/stream']);
  });

  it('streamMessage throws the error frame of a reply that fails midway, after the frames before it', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'one two three four five six seven eight nine ten eleven twelve', truncate: true });
    const { client, sent } = countingClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey });
    const frames: StreamFrame[] = [];
    const error = await (async () => {
      for await (const frame of client.streamMessage({ content: 'count for me' })) frames.push(frame);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ code: 'AI_RELAY_ERROR', status: 502 });
    expect(frames[0]?.type).toBe('session');
    expect(frames.some((frame) => frame.type === 'text-delta')).toBe(true);
    expect(frames.some((frame) => frame.type === 'done')).toBe(false);
    // Not retried: the message was recorded; the caller decides what to do.
    expect(sent).toEqual(['POST /agent/message/stream']);
  });

  it('streamMessage recovers the turn’s actions through pending-actions after a drop midway', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Two steps.', toolCalls: [navigate('orders'), navigate('order', { id: '7' })] });
    const proxy = await startSabotageProxy(fixture.server.url, 'cut-after-first-tool-call');
    try {
      const { client, sent } = countingClient({ baseUrl: proxy.url, apiKey: tenant.sdkKey });
      const stream = client.streamMessage({ content: 'two steps', context: { currentScreen: 'home' } });
      const frames = await collect(stream);
      expect(stream.recovered).toBe(true);
      expect(sent).toEqual(['POST /agent/message/stream', `GET /agent/session/${stream.sessionId}/pending-actions`]);
      const actions = frames.flatMap((frame) => (frame.type === 'tool-call' ? [frame.action.payload] : []));
      expect(actions).toEqual([{ screen: 'orders' }, { screen: 'order', params: { id: '7' } }]);
      expect(frames.at(-1)).toEqual({ type: 'done', messageId: expect.any(String), recovered: true });
    } finally {
      await proxy.close();
    }
  });

  it('retries a 502 AI_RELAY_ERROR from a model that fails twice, and never retries a 422', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ status: 500 }, { status: 503 }, { text: 'Finally.' });
    const { client, sent } = countingClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey, retry: { attempts: 3, baseDelayMs: 1 } });
    const reply = await client.sendMessage({ content: 'hello' });
    expect(reply.message.content).toBe('Finally.');
    expect(sent).toEqual(['POST /agent/message', 'POST /agent/message', 'POST /agent/message']);

    sent.length = 0;
    await expect(client.continueTurn({ sessionId: reply.sessionId, results: [], context: { currentScreen: 7 } } as never)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 422,
    });
    await expect(client.continueTurn({ sessionId: 'ses_unknown', results: [], context: {} })).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(sent).toEqual(['POST /agent/continue', 'POST /agent/continue']);
  });
});
