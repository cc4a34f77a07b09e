import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';

const safeRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** X-Request-Id: echo a caller's (when it is safe to put in a header and a log), else generate one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && safeRequestId.test(value) ? value : randomUUID();
}

/**
 * One log line per request: id, method, route, status, latency. Never headers,
 * bodies or query strings, so keys, tokens, identifiers and messages stay out.
 */
export function installRequestLogging(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? '(unmatched)',
        status: reply.statusCode,
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
  });
}
