import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';

const levelValues: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

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
  // Callback-style hooks: on the hot path they cost less than async ones.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    // Building the line costs time even when pino would drop it (LOG_LEVEL=warn).
    if ((levelValues[request.log.level] ?? 0) <= 30) {
      request.log.info(
        {
          method: request.method,
          route: request.routeOptions.url ?? '(unmatched)',
          status: reply.statusCode,
          latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request completed',
      );
    }
    done();
  });
}
