import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { sdkPrincipal } from '../auth/principal.js';
import { SessionIdParams, Message } from '../http/common-schemas.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { endSession, insertSession } from './session-repository.js';

const CreateSessionBody = Type.Object({
  userId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "the app's own id for the end user" })),
  deviceInfo: Type.Optional(Type.Object({}, { additionalProperties: true, maxProperties: 50, description: 'free-form, kept with the session' })),
});

export async function sessionRoutes(app: App): Promise<void> {
  const { db, auth } = app.parley;

  app.post('/agent/session', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Create a session',
      body: Type.Optional(CreateSessionBody),
      response: { 201: Envelope(Type.Object({ sessionId: Type.String() })), ...errorResponses(401, 403, 413, 422) },
    },
  }, async (request, reply) => {
    const { projectId } = sdkPrincipal(request);
    const session = await insertSession(db, { projectId, userId: request.body?.userId, deviceInfo: request.body?.deviceInfo });
    return reply.code(201).send(ok({ sessionId: session.id }));
  });

  app.delete('/agent/session/:sessionId', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'End a session; later use of it answers 404',
      params: SessionIdParams,
      response: { 200: Envelope(Message), ...errorResponses(401, 403, 404) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    if (!(await endSession(db, projectId, request.params.sessionId))) throw notFound('session');
    return ok({ message: 'session ended' });
  });
}
