import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.js';
import { sdkPrincipal } from '../auth/principal.js';
import { Id, IdParams } from '../http/common-schemas.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { findEscalationInProject, listEscalationMessages } from './escalation-repository.js';
import { Content, EndUserEscalation, maxNoteLength, parseSince, PollMessage, SinceQuery, Status, toEndUserView, toPollMessage } from './escalation-schemas.js';
import { abandonEscalation, postUserMessage, startEscalation, type EscalationDeps } from './escalation-service.js';
import { serveEscalationStream } from './escalation-streams.js';

const StartBody = Type.Object({
  sessionId: Type.Optional(Id('session to escalate; a new session is created when omitted')),
  reason: Type.Enum(['user_requested', 'agent_gave_up'], { description: 'why the conversation goes to a human' }),
  note: Type.Optional(Type.String({ maxLength: maxNoteLength, description: `extra context for the operator, at most ${maxNoteLength} characters` })),
});

export function escalationDeps(ctx: AppContext): EscalationDeps {
  return { db: ctx.db, bus: ctx.bus, onEventsCommitted: () => ctx.webhooks.wake() };
}

/** The end user's side of an escalation (sdk key, project-scoped). */
export async function escalationRoutes(app: App): Promise<void> {
  const ctx = app.parley;
  const { db, auth } = ctx;
  const deps = escalationDeps(ctx);

  app.post('/agent/escalation', {
    onRequest: auth.sdk,
    schema: {
      tags: ['escalation'],
      summary: 'Start a human hand-off, or resume the open one (201 new, 200 resumed)',
      body: StartBody,
      response: { 200: Envelope(EndUserEscalation), 201: Envelope(EndUserEscalation), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request, reply) => {
    const { projectId, workspaceId } = sdkPrincipal(request);
    const { escalation, created } = await startEscalation(deps, { workspaceId, projectId, sessionId: request.body.sessionId, reason: request.body.reason, note: request.body.note });
    return reply.code(created ? 201 : 200).send(ok(toEndUserView(escalation)));
  });

  app.post('/agent/escalation/:id/message', {
    onRequest: auth.sdk,
    schema: {
      tags: ['escalation'],
      summary: 'Send an end-user message to the human operator (not to the AI)',
      params: IdParams,
      body: Type.Object({ content: Content }),
      response: { 201: Envelope(Type.Object({ messageId: Type.String() })), ...errorResponses(401, 403, 404, 409, 422) },
    },
  }, async (request, reply) => {
    const { projectId } = sdkPrincipal(request);
    const { messageId } = await postUserMessage(deps, projectId, request.params.id, request.body.content);
    return reply.code(201).send(ok({ messageId }));
  });

  app.get('/agent/escalation/:id', {
    onRequest: auth.sdk,
    schema: {
      tags: ['escalation'],
      summary: 'Poll status and messages; with since, only operator messages created after it',
      params: IdParams,
      querystring: SinceQuery,
      response: { 200: Envelope(Type.Object({ escalationId: Type.String(), sessionId: Type.String(), status: Status, messages: Type.Array(PollMessage) })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    const since = parseSince(request.query.since);
    const row = await findEscalationInProject(db, projectId, request.params.id);
    if (!row) throw notFound('escalation');
    const messages = await listEscalationMessages(db, row.id, { since });
    return ok({ ...toEndUserView(row), messages: messages.map(toPollMessage) });
  });

  app.get('/agent/escalation/:id/stream', {
    onRequest: auth.sdk,
    schema: {
      tags: ['escalation'],
      summary: 'SSE: status, operator messages (backlog after since, then live), pings; ends after resolved',
      params: IdParams,
      querystring: SinceQuery,
      response: { 200: { content: { 'text/event-stream': { schema: Type.String() } } }, ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request, reply) => {
    const { projectId } = sdkPrincipal(request);
    const since = parseSince(request.query.since);
    await serveEscalationStream(ctx, request, reply, projectId, request.params.id, since);
    return reply;
  });

  app.post('/agent/escalation/:id/abandon', {
    onRequest: auth.sdk,
    schema: {
      tags: ['escalation'],
      summary: 'The end user left: resolve the escalation (idempotent)',
      params: IdParams,
      response: { 200: Envelope(Type.Object({ status: Type.Literal('resolved') })), ...errorResponses(401, 403, 404) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    await abandonEscalation(deps, projectId, request.params.id);
    return ok({ status: 'resolved' as const });
  });
}
