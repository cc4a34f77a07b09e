import type { App } from '../app-context.js';
import { sdkPrincipal } from '../auth/principal.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import type { PersonalizationCache } from './personalization-cache.js';
import { Personalization } from './personalization-schema.js';

export async function personalizationRoutes(app: App, cache: PersonalizationCache): Promise<void> {
  const { auth } = app.parley;

  app.get('/agent/personalization', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Project personalization (cached for an hour, refreshed on save)',
      description: 'Every field is present; null means not configured. poweredByVisible defaults to true, theme to { colors: {}, mode: "light" }.',
      response: { 200: Envelope(Personalization), ...errorResponses(401, 403) },
    },
  }, async (request) => {
    const value = await cache.get(sdkPrincipal(request).projectId);
    if (!value) throw notFound('project');
    return ok(value);
  });
}
