import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/** Registers the OpenAPI generator; must run before any route is added. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        version: '1.0.0',
        description: 'In-app AI agents with human backup. Every route is under /api/v1; every JSON response is the { success, data | error } envelope.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (ak_…): sdk scope for /agent routes, operator scope for /escalations routes.' },
          userToken: { type: 'http', scheme: 'bearer', description: 'A dashboard user token (ut_…), with the X-Workspace-Id header.' },
        },
      },
      tags: [
        { name: 'agent', description: 'The end-user agent surface (sdk key)' },
        { name: 'escalation', description: 'Human hand-off, end-user side (sdk key)' },
        { name: 'operator', description: 'The operator queue (operator key or user token)' },
        { name: 'admin', description: 'Dashboard administration (user token)' },
        { name: 'auth', description: 'Dashboard sign-in' },
        { name: 'health', description: 'Liveness and readiness' },
      ],
    },
  });
}

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  // The document itself is served bare (not enveloped): it is what OpenAPI tools expect.
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
