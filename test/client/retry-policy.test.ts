import { afterEach, describe, expect, it } from 'vitest';
import { ParleyClient, ParleyError, backoffDelay, defaultRetryPolicy } from '../../packages/client/src/index.js';
import { failure, startScriptedHttpServer, success, type ScriptedAnswer, type ScriptedHttpServer } from './scripted-http-server.js';

const tinyRetry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
let server: ScriptedHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(answers: ScriptedAnswer[], retry: ConstructorParameters<typeof ParleyClient>[0]['retry'] = tinyRetry) {
  server = await startScriptedHttpServer(answers);
  return { client: new ParleyClient({ baseUrl: server.url, apiKey: 'ak_test', retry }), server };
}

async function failureOf(promise: Promise<unknown>): Promise<ParleyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ParleyError);
  return error as ParleyError;
}

describe('backoffDelay', () => {
  it('doubles per retry, jitters within the upper half of the step, and stays under the cap', () => {
    const low = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0 };
    const high = { ...low, random: () => 0.999_999 };
    expect([1, 2, 3].map((retry) => backoffDelay(low, retry))).toEqual([50, 100, 200]);
    expect(backoffDelay(high, 1)).toBeCloseTo(100, 2);
    expect(backoffDelay(high, 3)).toBeCloseTo(400, 2);
    expect(backoffDelay(high, 10)).toBeLessThanOrEqual(1_000);
    expect(backoffDelay(low, 10)).toBe(500);
  });
});

describe('retry policy (section 7)', () => {
  it('retries 502 AI_RELAY_ERROR with backoff and returns the eventual data', async () => {
    const { client, server } = await clientFor([failure(502, 'AI_RELAY_ERROR'), failure(502, 'AI_RELAY_ERROR'), success({ sessionId: 'ses_1' }, 201)]);
    await expect(client.createSession()).resolves.toEqual({ sessionId: 'ses_1' });
    expect(server.requests).toHaveLength(3);
  });

  it('retries 500 RECOVER_PENDING_FAILED', async () => {
    const { client, server } = await clientFor([failure(500, 'RECOVER_PENDING_FAILED'), success({ actions: [] })]);
    await expect(client.pendingActions('ses_1')).resolves.toEqual({ actions: [] });
    expect(server.requests.map((request) => request.path)).toEqual(['/api/v1/agent/session/ses_1/pending-actions', '/api/v1/agent/session/ses_1/pending-actions']);
  });

  it('retries network failures (a dropped connection)', async () => {
    const { client, server } = await clientFor([{ drop: true }, success({ sessionId: 'ses_2' }, 201)]);
    await expect(client.createSession()).resolves.toEqual({ sessionId: 'ses_2' });
    expect(server.requests).toHaveLength(2);
  });

  it('retries a gateway 502 that is not Parley’s envelope as a network-level failure', async () => {
    const { client, server } = await clientFor([{ status: 502, body: '<html>Bad Gateway</html>' }, success({ sessionId: 'ses_3' }, 201)]);
    await expect(client.createSession()).resolves.toEqual({ sessionId: 'ses_3' });
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    [401, 'UNAUTHORIZED'],
    [404, 'NOT_FOUND'],
    [409, 'ESCALATION_RESOLVED'],
    [422, 'VALIDATION_ERROR'],
    [422, 'UNSUPPORTED_MODEL'],
    [500, 'INTERNAL_ERROR'],
  ])('never retries %i %s and throws it typed', async (status, code) => {
    const { client, server } = await clientFor([failure(status, code), success({ sessionId: 'never' }, 201)]);
    const error = await failureOf(client.createSession());
    expect({ code: error.code, status: error.status, message: error.message, requestId: error.requestId }).toEqual({
      code,
      status,
      message: `${code} happened`,
      requestId: 'req-1',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after the configured attempts with the last error', async () => {
    const { client, server } = await clientFor([failure(502, 'AI_RELAY_ERROR')], { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 });
    const error = await failureOf(client.createSession());
    expect(error.code).toBe('AI_RELAY_ERROR');
    expect(server.requests).toHaveLength(4);
  });

  it('does not retry at all with retry: false', async () => {
    const { client, server } = await clientFor([{ drop: true }, success({ sessionId: 'never' }, 201)], false);
    const error = await failureOf(client.createSession());
    expect({ code: error.code, status: error.status }).toEqual({ code: 'NETWORK_ERROR', status: 0 });
    expect(server.requests).toHaveLength(1);
  });

  it('stops waiting between retries when the signal aborts', async () => {
    const { client } = await clientFor([failure(502, 'AI_RELAY_ERROR')], { attempts: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 });
    const controller = new AbortController();
    const pending = client.createSession({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await failureOf(pending);
    expect(error.code).toBe('ABORTED');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('sends the key as a bearer token and the operator credentials of a user token', async () => {
    server = await startScriptedHttpServer([success({ escalations: [] })]);
    await new ParleyClient({ baseUrl: `${server.url}/`, userToken: 'ut_x', workspaceId: 'wks_1' }).operator.queue({ status: 'resolved' });
    expect(server.requests[0]).toMatchObject({ path: '/api/v1/escalations?status=resolved', headers: { authorization: 'Bearer ut_x', 'x-workspace-id': 'wks_1' } });
  });
});
