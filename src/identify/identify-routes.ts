import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { sdkPrincipal } from '../auth/principal.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { validationError } from '../http/errors.js';
import { upsertEndUser } from './end-user-repository.js';
import { IdentifyBody, maxIdentifierKeyLength } from './identify-schema.js';

export async function identifyRoutes(app: App): Promise<void> {
  const { db, auth } = app.parley;

  app.post('/agent/identify', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Upsert the current end user (write-only)',
      body: IdentifyBody,
      response: { 200: Envelope(Type.Object({ identified: Type.Literal(true) })), ...errorResponses(401, 403, 413, 415, 422) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    const { userId, name, identifiers } = request.body;
    for (const key of Object.keys(identifiers ?? {})) {
      // The key itself is not echoed: identifiers stay out of responses and logs.
      if (key.length === 0 || key.length > maxIdentifierKeyLength) throw validationError(`body.identifiers keys must be 1 to ${maxIdentifierKeyLength} characters`);
    }
    await upsertEndUser(db, { projectId, userId, name, identifiers });
    return ok({ identified: true as const });
  });
}
