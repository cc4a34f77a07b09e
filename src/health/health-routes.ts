import { sql } from 'kysely';
import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { AppError } from '../http/errors.js';

export async function healthRoutes(app: App): Promise<void> {
  const { db } = app.parley;

  // Liveness, exactly as the spec says: no auth, 200 while the process serves HTTP.
  app.get('/health', {
    schema: { tags: ['health'], summary: 'Liveness check (no authentication)', response: { 200: Envelope(Type.Object({ status: Type.Literal('ok') })) } },
  }, async () => ok({ status: 'ok' as const }));

  // Readiness for load balancers: the database answers.
  app.get('/ready', {
    schema: { tags: ['health'], summary: 'Readiness check: the database answers (no authentication)', response: { 200: Envelope(Type.Object({ status: Type.Literal('ready') })), ...errorResponses(503) } },
  }, async () => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', 'database is not reachable', { cause: error });
    }
    return ok({ status: 'ready' as const });
  });
}
