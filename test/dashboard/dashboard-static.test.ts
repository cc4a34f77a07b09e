import Fastify from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../../src/http/error-handler.js';
import { dashboardRoutes } from '../../src/web/dashboard-routes.js';
import { ensureDashboardBuilt } from '../support/dashboard-build.js';
import { startTestServer, type TestServer } from '../support/harness.js';

describe('dashboard static serving', () => {
  let server: TestServer;

  beforeAll(async () => {
    await ensureDashboardBuilt();
    server = await startTestServer('sqlite');
  }, 120_000);
  afterAll(async () => server?.close());

  it('serves the app shell at / with a strict content security policy', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('<div id="root">');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${server.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
    // Read the body: an unread response keeps its connection busy and holds up close().
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('answers client-side routes with the app shell', async () => {
    const response = await fetch(`${server.url}/escalations/esc_123`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('<div id="root">');
  });

  it('keeps the JSON 404 envelope for unknown API routes and missing files', async () => {
    for (const path of ['/api/v1/no-such-route', '/api/nothing', '/missing-file.js']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { success: boolean; error: { code: string } };
      expect(body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });

  it('says to run the build when the dashboard is not built, and the API still works', async () => {
    const app = Fastify();
    installErrorHandler(app);
    app.get('/api/v1/ping', async () => ({ ok: true }));
    await app.register(dashboardRoutes, { root: mkdtempSync(join(tmpdir(), 'parley-no-dashboard-')) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const page = await fetch(`${base}/`);
      expect(page.status).toBe(404);
      expect(await page.text()).toContain('npm run build');
      expect((await fetch(`${base}/api/v1/ping`)).status).toBe(200);
      expect((await fetch(`${base}/api/v1/other`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
