import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-context.js';
import { operatorDisplayName, operatorPrincipal } from '../auth/principal.js';
import { conversationForOperator } from '../agent/conversation-query.js';
import { Id, IdParams } from '../http/common-schemas.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound, validationError } from '../http/errors.js';
import { findEscalationInWorkspace, findIdentifiedUser, findProjectInWorkspace, listEscalationMessages, listQueue } from './escalation-repository.js';
import { Content, OperatorEscalation, OperatorName, toOperatorView, toTranscriptMessage, TranscriptMessage } from './escalation-schemas.js';
import { claimEscalation, postOperatorMessage, resolveEscalation } from './escalation-service.js';
import { escalationDeps } from './escalation-routes.js';
import type { OperatorRef } from './escalation-state.js';
import { serveWorkspaceFeed } from './escalation-streams.js';

const QueueQuery = Type.Object({
  status: Type.Optional(Type.Enum(['open', 'resolved'], { default: 'open', description: 'open = pending + active' })),
  projectId: Type.Optional(Id('only this project of the workspace')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
});

const ConversationEntry = Type.Object({
  id: Type.String(),
  role: Type.Enum(['user', 'assistant']),
  content: Type.String(),
  createdAt: Type.String(),
  actions: Type.Array(Type.Object({ id: Type.String(), type: Type.String(), payload: Type.Unknown(), status: Type.String(), error: Type.Union([Type.String(), Type.Null()]) })),
});

const IdentifiedUser = Type.Union([
  Type.Object({ userId: Type.String(), name: Type.Union([Type.String(), Type.Null()]), identifiers: Type.Record(Type.String(), Type.String()) }),
  Type.Null(),
]);

function operatorOf(request: FastifyRequest, requestedName: string | undefined): OperatorRef {
  const principal = operatorPrincipal(request);
  const id = principal.kind === 'operator-key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
  return { id, name: requestedName ?? operatorDisplayName(principal).slice(0, 120) };
}

function encodeCursor(lastActivityAt: string, id: string): string {
  return Buffer.from(JSON.stringify([lastActivityAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): { lastActivityAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { lastActivityAt: value[0], id: value[1] };
  } catch {
    // Falls through to the validation error.
  }
  throw validationError('query.cursor is not a cursor this server issued');
}

/** The operator's side (operator key, or dashboard user token + X-Workspace-Id), workspace-scoped. */
export async function operatorRoutes(app: App): Promise<void> {
  const ctx = app.parley;
  const { db, auth } = ctx;
  const deps = escalationDeps(ctx);

  app.get('/escalations', {
    onRequest: auth.operator,
    schema: {
      tags: ['operator'],
      summary: 'The queue: newest activity first, cursor-paginated',
      querystring: QueueQuery,
      response: { 200: Envelope(Type.Object({ escalations: Type.Array(OperatorEscalation), nextCursor: Type.Union([Type.String(), Type.Null()]) })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { workspaceId } = operatorPrincipal(request);
    const { status = 'open', projectId, limit = 50, cursor } = request.query;
    if (projectId !== undefined && !(await findProjectInWorkspace(db, workspaceId, projectId))) throw notFound('project');
    const rows = await listQueue(db, workspaceId, {
      statuses: status === 'open' ? ['pending', 'active'] : ['resolved'],
      projectId,
      after: cursor === undefined ? undefined : decodeCursor(cursor),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return ok({ escalations: page.map(toOperatorView), nextCursor: rows.length > limit && last ? encodeCursor(last.last_activity_at, last.id) : null });
  });

  // Registered before /escalations/:id so "stream" is never taken for an id.
  app.get('/escalations/stream', {
    onRequest: auth.operator,
    schema: {
      tags: ['operator'],
      summary: 'SSE feed of every escalation event of the workspace; Last-Event-ID replays missed events',
      response: { 200: { content: { 'text/event-stream': { schema: Type.String() } } }, ...errorResponses(401, 403) },
    },
  }, async (request, reply) => {
    const { workspaceId } = operatorPrincipal(request);
    await serveWorkspaceFeed(ctx, request, reply, workspaceId);
    return reply;
  });

  app.get('/escalations/:id', {
    onRequest: auth.operator,
    schema: {
      tags: ['operator'],
      summary: 'Detail: the escalation, the identified user, the AI conversation and the human transcript',
      params: IdParams,
      response: {
        200: Envelope(Type.Object({ escalation: OperatorEscalation, user: IdentifiedUser, conversation: Type.Array(ConversationEntry), messages: Type.Array(TranscriptMessage) })),
        ...errorResponses(401, 403, 404),
      },
    },
  }, async (request) => {
    const { workspaceId } = operatorPrincipal(request);
    const row = await findEscalationInWorkspace(db, workspaceId, request.params.id);
    if (!row) throw notFound('escalation');
    const session = await db.selectFrom('sessions').select('user_id').where('id', '=', row.session_id).executeTakeFirst();
    const user = session?.user_id ? await findIdentifiedUser(db, row.project_id, session.user_id) : null;
    const [conversation, messages] = await Promise.all([conversationForOperator(db, row.session_id), listEscalationMessages(db, row.id)]);
    return ok({ escalation: toOperatorView(row), user, conversation, messages: messages.map(toTranscriptMessage) });
  });

  app.post('/escalations/:id/claim', {
    onRequest: auth.operator,
    schema: {
      tags: ['operator'],
      summary: 'Claim a pending escalation (idempotent for the claimant; 409 ESCALATION_CLAIMED for others)',
      params: IdParams,
      body: Type.Optional(Type.Object({ operatorName: Type.Optional(OperatorName) })),
      response: { 200: Envelope(OperatorEscalation), ...errorResponses(401, 403, 404, 409, 422) },
    },
  }, async (request) => {
    const { workspaceId } = operatorPrincipal(request);
    const row = await claimEscalation(deps, workspaceId, request.params.id, operatorOf(request, request.body?.operatorName));
    return ok(toOperatorView(row));
  });

  app.post('/escalations/:id/message', {
    onRequest: auth.operator,
    schema: {
      tags: ['operator'],
      summary: 'Reply as the operator; a reply to a pending escalation claims it',
      params: IdParams,
      body: Type.Object({ content: Content, operatorName: Type.Optional(OperatorName) }),
      response: { 200: Envelope(Type.Object({ messageId: Type.String(), createdAt: Type.String(), escalation: OperatorEscalation })), ...errorResponses(401, 403, 404, 409, 422) },
    },
  }, async (request) => {
    const { workspaceId } = operatorPrincipal(request);
    const result = await postOperatorMessage(deps, workspaceId, request.params.id, operatorOf(request, request.body.operatorName), request.body.content);
    return ok({ messageId: result.messageId, createdAt: result.createdAt, escalation: toOperatorView(result.escalation) });
  });

  app.post('/escalations/:id/resolve', {
    onRequest: auth.operator,
    schema: {
      tags: ['operator'],
      summary: 'Resolve: hand the conversation back to the AI (idempotent)',
      params: IdParams,
      response: { 200: Envelope(OperatorEscalation), ...errorResponses(401, 403, 404) },
    },
  }, async (request) => {
    const { workspaceId } = operatorPrincipal(request);
    const row = await resolveEscalation(deps, workspaceId, request.params.id, operatorOf(request, undefined));
    return ok(toOperatorView(row));
  });
}
