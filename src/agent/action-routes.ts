import type { App } from '../app-context.js';
import { sdkPrincipal } from '../auth/principal.js';
import { SessionIdParams } from '../http/common-schemas.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { AppError, notFound } from '../http/errors.js';
import { requireOpenSession } from '../sessions/session-service.js';
import { expireActions, findProjectAction, markActionExecuting, pendingActionsOfSession, setActionOutcome } from './agent-repository.js';
import { ActionIdParams, CompleteBody, PendingActionsResponse } from './agent-schemas.js';
import { Type } from 'typebox';

/** How often actions left unreported past their expiry are failed, besides lazily on access. */
const expirySweepMs = 30_000;

/** Action state routes (pending → executing → completed | failed) and recovery of unreported actions. */
export async function actionRoutes(app: App): Promise<void> {
  const { db, auth } = app.parley;

  const sweep = setInterval(() => {
    expireActions(db, null).catch((error: unknown) => app.log.warn({ err: error }, 'action expiry sweep failed'));
  }, expirySweepMs);
  sweep.unref();
  app.parley.onClose(() => clearInterval(sweep));

  app.post('/agent/action/:actionId/execute', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Mark an action as executing',
      params: ActionIdParams,
      response: {
        200: Envelope(Type.Object({ actionId: Type.String(), type: Type.String(), payload: Type.Object({}, { additionalProperties: true }), status: Type.Literal('executing') })),
        ...errorResponses(401, 403, 404, 409),
      },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    const action = await findProjectAction(db, projectId, request.params.actionId);
    if (!action) throw notFound('action');
    await expireActions(db, action.session_id);
    if (!(await markActionExecuting(db, action.id))) {
      const current = await findProjectAction(db, projectId, action.id);
      throw new AppError('CONFLICT', `action is already ${current?.status ?? 'finished'}${current?.error ? ` (${current.error})` : ''}; it cannot start executing again`);
    }
    return ok({ actionId: action.id, type: action.type, payload: JSON.parse(action.payload) as Record<string, unknown>, status: 'executing' as const });
  });

  app.post('/agent/action/:actionId/complete', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Report the outcome of an action',
      params: ActionIdParams,
      body: CompleteBody,
      response: { 200: Envelope(Type.Object({ actionId: Type.String(), status: Type.Union([Type.Literal('completed'), Type.Literal('failed')]) })), ...errorResponses(401, 403, 404, 413, 422) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    const action = await findProjectAction(db, projectId, request.params.actionId);
    if (!action) throw notFound('action');
    const status = request.body.success ? ('completed' as const) : ('failed' as const);
    // Any state may be completed (spec section 3), including one failed by timeout: the app's word is last.
    await setActionOutcome(db, action.id, { status, error: request.body.success ? null : (request.body.error ?? 'failed') });
    return ok({ actionId: action.id, status });
  });

  app.get('/agent/session/:sessionId/pending-actions', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Actions stored but not yet reported complete: recovery after a dropped connection',
      params: SessionIdParams,
      response: { 200: Envelope(PendingActionsResponse), ...errorResponses(401, 403, 404, 500) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    await requireOpenSession(db, projectId, request.params.sessionId);
    try {
      await expireActions(db, request.params.sessionId);
      const rows = await pendingActionsOfSession(db, request.params.sessionId);
      return ok({ actions: rows.map((row) => ({ id: row.id, type: row.type, payload: JSON.parse(row.payload) as Record<string, unknown>, messageId: row.message_id })) });
    } catch (error) {
      throw new AppError('RECOVER_PENDING_FAILED', 'could not read the pending actions; retry with backoff', { cause: error });
    }
  });
}
