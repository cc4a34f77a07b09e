import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { sdkPrincipal } from '../auth/principal.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { parseDevPrompts } from './dev-prompts.js';
import { computePopularPrompts, findPopularPromptSnapshot } from './popular-prompt-computation.js';
import { snapshotDepth } from './popular-prompt-ranking.js';

export const defaultPromptLimit = 5;

const PopularPromptsQuery = Type.Object({
  screen: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'screen name (context.currentScreen)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: snapshotDepth, description: `items per list; default ${defaultPromptLimit}, maximum ${snapshotDepth}` })),
});

const PopularPrompts = Type.Object({
  devDefined: Type.Array(Type.String()),
  screenPopular: Type.Array(Type.String()),
  globalPopular: Type.Array(Type.String()),
  computedAt: Type.String({ format: 'date-time' }),
});

export async function popularPromptRoutes(app: App): Promise<void> {
  const { db, auth } = app.parley;

  app.get('/agent/popular-prompts', {
    onRequest: auth.sdk,
    schema: {
      tags: ['agent'],
      summary: 'Suggested prompts: the owner\'s, popular on the screen, popular overall',
      description: `Popular lists come from the last periodic computation (computedAt). limit defaults to ${defaultPromptLimit}, maximum ${snapshotDepth}.`,
      querystring: PopularPromptsQuery,
      response: { 200: Envelope(PopularPrompts), ...errorResponses(401, 403, 422) },
    },
  }, async (request) => {
    const { projectId } = sdkPrincipal(request);
    const { screen } = request.query;
    const limit = request.query.limit ?? defaultPromptLimit;
    const project = await db.selectFrom('projects').select('dev_prompts').where('id', '=', projectId).executeTakeFirst();
    if (!project) throw notFound('project');
    // Never computed yet (a new project, or before the first periodic run): compute
    // once now, so computedAt is always a real computation time.
    const snapshot = (await findPopularPromptSnapshot(db, projectId)) ?? (await computePopularPrompts(db, projectId));
    if (!snapshot) throw notFound('project');
    const devPrompts = parseDevPrompts(project.dev_prompts);
    return ok({
      devDefined: (screen === undefined ? devPrompts.global : (devPrompts.screens[screen] ?? [])).slice(0, limit),
      screenPopular: screen === undefined ? [] : (snapshot.screens[screen] ?? []).slice(0, limit),
      globalPopular: snapshot.global.slice(0, limit),
      computedAt: snapshot.computedAt,
    });
  });
}
