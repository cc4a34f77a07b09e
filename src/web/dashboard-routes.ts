import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Where `vite build` puts the dashboard. Resolved from this file so it is the
 * same from source (src/web → ../../dist/dashboard) and from the build
 * (dist/web → ../../dist/dashboard).
 */
export const defaultDashboardRoot = fileURLToPath(new URL('../../dist/dashboard/', import.meta.url));

/**
 * A strict policy for the dashboard's pages: scripts only from our own origin,
 * so even a rendering bug could not run a user's or a model's text as code.
 * Images may come from anywhere (avatars in the personalization preview).
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https: http:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const notBuiltPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parley</title></head>
<body><h1>Parley dashboard is not built</h1><p>Run <code>npm run build</code>, then restart the server. The API is at <code>/api/v1</code>.</p></body></html>`;

/**
 * Serves the dashboard's static build at `/`, with client-side routes falling
 * back to index.html. Registered outside the /api/v1 prefix; unknown /api/…
 * paths still reach the JSON 404 handler.
 */
export async function dashboardRoutes(app: FastifyInstance, options: { root?: string } = {}): Promise<void> {
  const root = options.root ?? defaultDashboardRoot;
  const built = existsSync(join(root, 'index.html'));

  if (!built) {
    // Running from source without a build (tests, `npm run dev`): say what to do, never crash.
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.code(404).type('text/html; charset=utf-8').send(notBuiltPage));
    return;
  }

  await app.register(fastifyStatic, {
    root,
    // Only files present at start are routed; everything else falls to the handler below.
    wildcard: false,
    // Our own Cache-Control below (send's default would overwrite it).
    cacheControl: false,
    setHeaders: (response, path) => {
      // Vite names assets by content hash, so they never change under one name.
      if (path.startsWith(join(root, 'assets'))) response.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else response.setHeader('cache-control', 'no-cache');
      response.setHeader('content-security-policy', contentSecurityPolicy);
      response.setHeader('x-content-type-options', 'nosniff');
      response.setHeader('referrer-policy', 'no-referrer');
    },
  });

  // Client-side routes (/escalations/esc_…, /settings) load the app shell.
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = path === '/api' || path.startsWith('/api/');
    const looksLikeFile = /\.[a-z0-9]+$/i.test(path);
    if (isApi || looksLikeFile) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
