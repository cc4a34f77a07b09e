import type { FastifyInstance } from 'fastify';

/**
 * Fastify's JSON parser, except that an empty body is "no body": clients that
 * always send Content-Type: application/json can still call the no-body routes
 * (DELETE, execute, abandon, resolve).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
