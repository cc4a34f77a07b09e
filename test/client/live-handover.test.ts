import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../support/harness.js';
import { countingClient, fakeModelTenant, startLiveFixture, type LiveFixture } from './client-support.js';

describe.each(testDialects())('client SDK: a turn that hands over to a person (%s)', (dialect) => {
  let fixture: LiveFixture;
  beforeAll(async () => {
    fixture = await startLiveFixture(dialect);
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('runTurn ends the turn when an action hands the conversation to a human', async () => {
    fixture.upstream.reset();
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Getting a person.', toolCalls: [{ name: 'escalate', args: { reason: 'the user asked for a person' } }] });
    const { client, sent } = countingClient({ baseUrl: fixture.server.url, apiKey: tenant.sdkKey });
    let escalationId = '';
    const transcript = await client.runTurn('I want a human', {
      context: { currentScreen: 'help' },
      executeAction: async (action, { sessionId }) => {
        expect(action.type).toBe('escalate');
        escalationId = (await client.escalate({ sessionId, reason: 'user_requested', note: String(action.payload['reason']) })).escalationId;
        return { success: true };
      },
    });
    expect(transcript).toMatchObject({ handedOver: true, hops: 0, text: 'Getting a person.' });
    expect(sent).toEqual(['POST /agent/message', 'POST /agent/escalation', 'POST /agent/continue']);
    await expect(client.getEscalation(escalationId)).resolves.toMatchObject({ status: 'pending', sessionId: transcript.sessionId });
  });

});
