import type { FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import type { App } from '../app-context.js';
import type { Principal } from '../auth/principal.js';
import { channels } from '../events/event-bus.js';
import { AppError } from '../http/errors.js';
import type { BucketStore } from './bucket-store.js';
import { ProjectRateLimits, type RouteClass } from './project-rate-limits.js';

/** The routes that cost a model call; everything else is the `default` class. */
const agentMessageRoutes = new Set(['/api/v1/agent/message', '/api/v1/agent/message/stream', '/api/v1/agent/continue']);

const classNames: Record<RouteClass, string> = { agentMessage: 'agent-message', default: 'default' };

export function routeClassOf(request: FastifyRequest): RouteClass {
  return agentMessageRoutes.has(request.routeOptions.url ?? '') ? 'agentMessage' : 'default';
}

/** One bucket per API key (or per dashboard user) and route class. */
function subjectOf(principal: Principal): string {
  return principal.kind === 'user' ? `user:${principal.userId}` : `key:${principal.keyId}`;
}

/**
 * Rate limiting in one place for every route. It is a global preParsing hook:
 * Fastify runs it after the routes' own onRequest auth hooks (so the caller is
 * known) and before the body is parsed (so a refused caller costs no parsing).
 * Requests without a principal (health, readiness, sign-in, rejected
 * credentials) are not limited here.
 */
export async function installRateLimits(app: App, store: BucketStore): Promise<void> {
  const { config, db, bus } = app.parley;
  if (!config.rateLimits.enabled) return;
  const projects = new ProjectRateLimits(db, config.rateLimits);
  const unsubscribe = await bus.subscribe(channels.projectUpdated, (message) => {
    const projectId = (message as { projectId?: unknown } | null)?.projectId;
    projects.forget(typeof projectId === 'string' ? projectId : null);
  });
  app.parley.onClose(async () => {
    await unsubscribe();
    await store.close();
  });

  let lastStoreWarning = 0;
  const hook: preParsingAsyncHookHandler = async (request, _reply, payload) => {
    const principal = request.principal;
    if (!principal) return payload;
    const routeClass = routeClassOf(request);
    const limits = principal.kind === 'sdk-key' ? await projects.forProject(principal.projectId) : config.rateLimits;
    let result;
    try {
      result = await store.take(`${classNames[routeClass]}:${subjectOf(principal)}`, limits[routeClass]);
    } catch (error) {
      // Fail open: an unreachable Redis must not take the API down with it.
      if (Date.now() - lastStoreWarning > 10_000) {
        lastStoreWarning = Date.now();
        request.log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'rate-limit store unavailable; request allowed');
      }
      return payload;
    }
    if (result.allowed) return payload;
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
    throw new AppError('RATE_LIMITED', `rate limit exceeded for ${classNames[routeClass]} requests with this credential: retry after ${seconds} s`, {
      headers: { 'Retry-After': String(seconds) },
    });
  };
  app.addHook('preParsing', hook);
}
