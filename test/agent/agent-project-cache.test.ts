import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '../support/harness.js';
import { chatBodies, fakeModelTenant, startAgentFixture, type AgentFixture } from './agent-support.js';

/**
 * The agent keeps each project's settings and action catalog in memory; every
 * admin save must reach the very next message (invalidation through the bus).
 */
describe.each(testDialects())('agent project cache on %s', (dialect) => {
  let fixture: AgentFixture;
  beforeAll(async () => {
    fixture = await startAgentFixture(dialect);
  });
  afterAll(() => fixture.close());
  beforeEach(() => fixture.upstream.reset());

  const toolNames = () => chatBodies(fixture.upstream).map((body) => body.tools!.map((t) => t.function.name).sort());

  it('offers an action type saved or removed through the admin API on the very next message', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.setDefaultReply({ text: 'ok' });
    expect((await tenant.sdk.post('/agent/message', { content: 'a' })).status).toBe(200);
    const base = `/admin/projects/${tenant.projectId}/action-types`;
    expect((await tenant.user.put(`${base}/add_to_cart`, { description: 'Add an item', payloadSchema: { type: 'object', properties: { sku: { type: 'string' } } } })).status).toBe(201);
    await tenant.sdk.post('/agent/message', { content: 'b' });
    expect((await tenant.user.put(`${base}/add_to_cart`, { description: 'Add one item', payloadSchema: { type: 'object', properties: { qty: { type: 'integer' } } } })).status).toBe(200);
    await tenant.sdk.post('/agent/message', { content: 'c' });
    expect((await tenant.user.delete(`${base}/add_to_cart`)).status).toBe(200);
    await tenant.sdk.post('/agent/message', { content: 'd' });
    fixture.upstream.setDefaultReply(undefined);
    expect(toolNames()).toEqual([
      ['escalate', 'navigate'],
      ['add_to_cart', 'escalate', 'navigate'],
      ['add_to_cart', 'escalate', 'navigate'],
      ['escalate', 'navigate'],
    ]);
    const replaced = chatBodies(fixture.upstream)[2]!.tools!.find((t) => t.function.name === 'add_to_cart')!;
    expect(JSON.stringify(replaced)).toContain('Add one item');
    expect(replaced.function.parameters.properties).toEqual({ qty: { type: 'integer' } });
  });

  it('uses a model, persona, escalate switch and assistant name changed through the admin API on the very next message', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.setDefaultReply({ text: 'ok' });
    await tenant.sdk.post('/agent/message', { content: 'a' });
    const patched = await tenant.user.patch(`/admin/projects/${tenant.projectId}`, {
      model: 'openai-compatible:other-llm',
      personaPrompt: 'Speak like a pirate.',
      escalateToolEnabled: false,
      personalization: { assistantName: 'Polly' },
    });
    expect(patched.status).toBe(200);
    const second = await tenant.sdk.post('/agent/message', { content: 'b' });
    fixture.upstream.setDefaultReply(undefined);
    expect(second.body.data.usage.modelUsed).toBe('openai-compatible:other-llm');
    const [before, after] = chatBodies(fixture.upstream) as Array<Record<string, any>>;
    expect(before!['model']).toBe('fake-llm');
    expect(after!['model']).toBe('other-llm');
    const system = after!['messages'][0].content as string;
    expect(system).toContain('Speak like a pirate.');
    expect(system).toContain('You are Polly');
    expect(toolNames()).toEqual([['escalate', 'navigate'], ['navigate']]);
  });

  it('switches to the offline demo model on the next message once an admin picks it', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.setDefaultReply({ text: 'ok' });
    expect((await tenant.sdk.post('/agent/message', { content: 'a' })).status).toBe(200);
    fixture.upstream.setDefaultReply(undefined);
    expect((await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { model: 'demo:parley-demo' })).status).toBe(200);
    const demo = await tenant.sdk.post('/agent/message', { content: 'hello' });
    expect(demo.status).toBe(200);
    expect(demo.body.data.usage.modelUsed).toBe('demo:parley-demo');
  });
});
