import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { workspaceUserPrincipal } from '../auth/principal.js';
import { Id } from '../http/common-schemas.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { findProjectInWorkspace } from '../projects/project-repository.js';
import { conversationsPerDay, daysFrom, median, topPrompts, type AnalyticsScope } from './analytics-query.js';
import { escalationFacts, type EscalationFacts } from './escalation-metrics.js';

const Duration = Type.Object({
  count: Type.Integer({ description: 'escalations measured' }),
  medianSeconds: Type.Union([Type.Number(), Type.Null()]),
  averageSeconds: Type.Union([Type.Number(), Type.Null()]),
});

const Analytics = Type.Object({
  since: Type.String({ description: 'UTC midnight of the first day counted' }),
  days: Type.Array(Type.Object({ date: Type.String(), conversations: Type.Integer(), escalations: Type.Integer() })),
  totals: Type.Object({
    conversations: Type.Integer({ description: 'sessions started' }),
    escalations: Type.Integer(),
    escalationRate: Type.Union([Type.Number(), Type.Null()], { description: 'escalations / conversations; null without conversations' }),
  }),
  timeToFirstReply: Duration,
  resolutionTime: Duration,
  topPrompts: Type.Array(Type.Object({ prompt: Type.String(), conversations: Type.Integer() })),
});

const secondsBetween = (from: string, to: string): number => Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);

function durations(facts: EscalationFacts[], end: (fact: EscalationFacts) => string | null) {
  const values = facts.flatMap((fact) => {
    const at = end(fact);
    return at ? [secondsBetween(fact.createdAt, at)] : [];
  });
  return {
    count: values.length,
    medianSeconds: median(values),
    averageSeconds: values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length,
  };
}

/** GET /admin/analytics: the dashboard's insight page, computed from the tables on each call. */
export async function analyticsRoutes(app: App): Promise<void> {
  const { db, auth } = app.parley;

  app.get('/admin/analytics', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Conversations per day, escalation rate, time to first operator reply, resolution time, top prompts',
      querystring: Type.Object({
        projectId: Type.Optional(Id('one project; default every project of the workspace')),
        days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'UTC days, today included' })),
      }),
      response: { 200: Envelope(Analytics), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const projectId = request.query.projectId ?? null;
    if (projectId && !(await findProjectInWorkspace(db, workspaceId, projectId))) throw notFound('project');
    const today = new Date();
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - ((request.query.days ?? 30) - 1) * 86_400_000);
    const scope: AnalyticsScope = { workspaceId, projectId, since: start.toISOString() };

    const [perDay, facts, prompts] = await Promise.all([conversationsPerDay(db, scope), escalationFacts(db, scope), topPrompts(db, scope, 10)]);
    const escalationsPerDay = new Map<string, number>();
    for (const fact of facts) escalationsPerDay.set(fact.createdAt.slice(0, 10), (escalationsPerDay.get(fact.createdAt.slice(0, 10)) ?? 0) + 1);
    const days = daysFrom(scope.since, today).map((date) => ({ date, conversations: perDay.get(date) ?? 0, escalations: escalationsPerDay.get(date) ?? 0 }));
    const conversations = days.reduce((sum, day) => sum + day.conversations, 0);

    return ok({
      since: scope.since,
      days,
      totals: { conversations, escalations: facts.length, escalationRate: conversations === 0 ? null : facts.length / conversations },
      timeToFirstReply: durations(facts, (fact) => fact.firstReplyAt),
      resolutionTime: durations(facts, (fact) => fact.resolvedAt),
      topPrompts: prompts,
    });
  });
}
