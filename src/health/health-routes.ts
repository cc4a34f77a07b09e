import { sql } from 'kysely';
import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { AppError } from '../http/errors.js';

export async function healthRoutes(app: App): Promise<void> {
  const { db, lifecycle } = app.parley;

  // Liveness, exactly as the spec says: no auth, 200 while the process serves HTTP.
  app.get('/health', {
    schema: { tags: ['health'], summary: 'Liveness check (no authentication)', response: { 200: Envelope(Type.Object({ status: Type.Literal('ok') })) } },
  }, async () => ok({ status: 'ok' as const }));

  // Readiness for load balancers: not shutting down, and the database answers.
  // It turns 503 the moment shutdown starts, while /health stays 200 until the end.
  app.get('/ready', {
    schema: { tags: ['health'], summary: 'Readiness check: not shutting down and the database answers (no authentication)', response: { 200: Envelope(Type.Object({ status: Type.Literal('ready') })), ...errorResponses(503) } },
  }, async () => {
    if (lifecycle.shuttingDown) throw new AppError('SERVICE_UNAVAILABLE', 'shutting down');
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', 'database is not reachable', { cause: error });
    }
    return ok({ status: 'ready' as const });
  });
}
