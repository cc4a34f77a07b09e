import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuilt } from '../support/dashboard-build.js';
import { createTenant, startTestServer, type Tenant, type TestServer } from '../support/harness.js';

const chromiumPath = '/usr/bin/chromium';
const screenshotDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const browserArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Reads an SSE response until `accept` returns a value or the time runs out. */
async function waitForFrame<T>(response: Response, accept: (frame: any) => T | undefined, timeoutMs = 10_000): Promise<T> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended before the expected frame');
      buffer += value;
      const frames = buffer.split('\n\n');
      buffer = frames.pop() ?? '';
      for (const frame of frames) {
        const data = frame.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
        if (!data) continue;
        const found = accept(JSON.parse(data));
        if (found !== undefined) return found;
      }
    }
  } finally {
    clearTimeout(timer);
    void reader.cancel().catch(() => undefined);
  }
}

// One browser and one server for the file; each scenario signs in on its own tenant.
describe.skipIf(!existsSync(chromiumPath))('dashboard in Chromium', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    await ensureDashboardBuilt();
    mkdirSync(screenshotDir, { recursive: true });
    server = await startTestServer('sqlite', { ssePingIntervalMs: 500 });
    browser = await chromium.launch({ executablePath: chromiumPath, args: browserArgs });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const hasRoute = (method: 'GET' | 'POST' | 'PATCH', url: string): boolean => server.app.hasRoute({ method, url: `/api/v1${url}` });

  async function signIn(tenant: Tenant, options: { screenshot?: boolean; width?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByLabel('Email').fill(tenant.dashboard.email);
    await page.getByLabel('Password').fill(tenant.dashboard.password);
    if (options.screenshot) await page.screenshot({ path: `${screenshotDir}sign-in.png` });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return { context, page };
  }

  it('signs in, keeps the token for the tab only, and signs out', async () => {
    const tenant = await createTenant(server);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByLabel('Email').fill(tenant.dashboard.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await context.close();

    const signedIn = await signIn(tenant, { screenshot: true });
    const stored = await signedIn.page.evaluate(() => ({ session: sessionStorage.getItem('parley.session'), local: JSON.stringify(localStorage) }));
    expect(stored.session).toContain('"token"');
    expect(stored.local).not.toContain(tenant.dashboard.password);
    expect(stored.session).not.toContain(tenant.dashboard.password);
    expect(await signedIn.page.locator('#workspace').inputValue()).toBe(tenant.workspaceId);

    // A token the server no longer accepts sends the user back to sign-in.
    const token = JSON.parse(stored.session!).token as string;
    const logout = await fetch(`${server.url}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(logout.status).toBe(200);
    await signedIn.page.reload();
    await signedIn.page.getByText('Your session has expired').waitFor();

    const again = await signIn(tenant);
    await again.page.getByRole('button', { name: 'Sign out' }).click();
    await again.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await again.page.evaluate(() => sessionStorage.getItem('parley.session'))).toBeNull();
    await signedIn.context.close();
    await again.context.close();
  });
});
