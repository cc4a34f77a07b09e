import type { App } from '../app-context.js';
import { sdkPrincipal } from '../auth/principal.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { AgentProjectCache } from './agent-project-cache.js';
import { failTurn, finishMessageTurn, relayFailure, startMessageTurn, type AgentRuntime } from './agent-service.js';
import { ContinueBody, ContinueResponse, MessageBody, MessageResponse } from './agent-schemas.js';
import { continueTurn } from './continue-service.js';
import { runModelStep, type ModelStepResult } from './run-model-step.js';
import { streamMessage } from './stream-message.js';

/** The conversation routes: a message (whole or streamed) and the hops that continue its turn. */
export async function agentRoutes(app: App): Promise<void> {
  const { db, config, auth, bus } = app.parley;
  const projects = new AgentProjectCache(db);
  app.parley.onClose(await projects.listen(bus));

  app.post('/agent/message', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Send a message; the reply comes back whole',
      body: MessageBody,
      response: { 200: Envelope(MessageResponse), ...errorResponses(401, 403, 404, 409, 413, 422, 502) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    const runtime: AgentRuntime = { db, config, projects, log: request.log };
    const started = await startMessageTurn(runtime, projectId, request.body, { streaming: false });
    let result: ModelStepResult;
    try {
      result = await runModelStep({
        model: started.resolved.model, system: started.system, messages: started.messages, catalog: started.catalog, timeoutMs: config.modelTimeoutMs, stream: false, log: request.log,
      });
    } catch (error) {
      await failTurn(runtime, started.turn.id, started);
      throw relayFailure(request.log, error);
    }
    try {
      return ok(await finishMessageTurn(runtime, started, result, null));
    } catch (error) {
      // Not the model's fault: a storage failure stays a 500, not AI_RELAY_ERROR.
      await failTurn(runtime, started.turn.id, started);
      throw error;
    }
  });

  app.post('/agent/message/stream', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Send a message; the reply comes back as Server-Sent Events (session, text-delta, tool-call, done; error on a late failure)',
      body: MessageBody,
      response: errorResponses(401, 403, 404, 409, 413, 422, 502),
    },
  }, async (request, reply) => {
    const { projectId } = sdkPrincipal(request);
    await streamMessage({ db, config, projects, log: request.log }, request, reply, projectId, request.body);
    return reply;
  });

  app.post('/agent/continue', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Report action results and get the next step of the turn',
      body: ContinueBody,
      response: { 200: Envelope(ContinueResponse), ...errorResponses(401, 403, 404, 409, 413, 422, 502) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    return ok(await continueTurn({ db, config, projects, log: request.log }, projectId, request.body));
  });
}
