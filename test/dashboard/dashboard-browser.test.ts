import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuilt } from '../support/dashboard-build.js';
import { createTenant, startTestServer, type Tenant, type TestServer } from '../support/harness.js';

const chromiumPath = '/usr/bin/chromium';
// The README's screenshots are rewritten only when asked, so a plain `npm test` leaves the tree clean.
const screenshotDir = fileURLToPath(new URL(process.env['PARLEY_UPDATE_SCREENSHOTS'] ? '../../docs/screenshots/' : '../../test-results/screenshots/', import.meta.url));
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
    server = await startTestServer('sqlite', { ssePingIntervalMs: 500, webhooksAllowPrivateAddresses: true });
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
    // Evaluated in the page (strings: the test's own typings have no DOM).
    const stored = (await signedIn.page.evaluate('({ session: sessionStorage.getItem("parley.session"), local: JSON.stringify(localStorage) })')) as { session: string | null; local: string };
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
    expect(await again.page.evaluate('sessionStorage.getItem("parley.session")')).toBeNull();
    await signedIn.context.close();
    await again.context.close();
  });
  it('works an escalation live: queue without reload, claim, reply to the end user, resolve, text-only rendering', async (ctx) => {
    if (!hasRoute('GET', '/escalations') || !hasRoute('POST', '/agent/escalation')) return ctx.skip();
    const tenant = await createTenant(server);
    const { context, page } = await signIn(tenant);
    await page.getByLabel('Your display name (shown to end users)').fill('Ada from support');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Replying as').waitFor();
    await page.getByText('Live', { exact: true }).waitFor();

    // The end user, through the API: identified, then escalates and writes to the operator.
    const userId = 'user-42';
    if (hasRoute('POST', '/agent/identify')) {
      expect((await tenant.sdk.post('/agent/identify', { userId, name: 'Grace Hopper', identifiers: { email: 'grace@example.com', plan: 'pro' } })).status).toBe(200);
    }
    const session = await tenant.sdk.post('/agent/session', { userId });
    expect(session.status).toBe(201);
    if (hasRoute('POST', '/agent/message')) {
      // A short talk with the (demo) model first, so the operator sees what led here.
      expect((await tenant.sdk.post('/agent/message', { sessionId: session.body.data.sessionId, content: 'Take me to my orders', context: { currentScreen: 'home' } })).status).toBe(200);
    }
    const escalation = await tenant.sdk.post('/agent/escalation', { sessionId: session.body.data.sessionId, reason: 'user_requested', note: 'Asked for a refund twice' });
    expect(escalation.status).toBe(201);
    const escalationId = escalation.body.data.escalationId as string;
    const hostile = '<script>window.__owned = true</script><img src=x onerror="window.__owned = true"> where is my refund?';
    expect((await tenant.sdk.post(`/agent/escalation/${escalationId}/message`, { content: hostile })).status).toBe(201);

    // Shown without a reload, with an unread badge.
    const item = page.locator(`a[data-escalation-id="${escalationId}"]`);
    await item.waitFor({ timeout: 10_000 });
    await page.locator('.unread').first().waitFor();
    await page.screenshot({ path: `${screenshotDir}console-queue.png` });
    await item.click();

    // The hostile message is text, not markup.
    const transcript = page.locator('.transcript');
    await transcript.getByText('where is my refund?', { exact: false }).waitFor();
    expect(await transcript.locator('.message.from-user .content').first().textContent()).toBe(hostile);
    expect(await transcript.locator('script, img').count()).toBe(0);
    expect(await page.evaluate('window.__owned')).toBeUndefined();

    // Claim.
    await page.getByRole('button', { name: 'Claim', exact: true }).click();
    await page.locator('.escalation-head .badge.active').waitFor();
    expect(await page.locator('.escalation-head').textContent()).toContain('claimed by Ada from support');

    // Reply: the end user's stream receives it.
    const stream = await fetch(`${server.url}/api/v1/agent/escalation/${escalationId}/stream`, { headers: { authorization: `Bearer ${tenant.sdkKey}` } });
    expect(stream.status).toBe(200);
    const received = waitForFrame(stream, (frame) => (frame.type === 'human-message' ? frame.message.content as string : undefined));
    await page.getByLabel('Reply').fill('Hello Grace, I am looking at your refund now.');
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await received).toBe('Hello Grace, I am looking at your refund now.');
    await transcript.getByText('I am looking at your refund now.').waitFor();

    // A new end-user message appears live in the open view.
    expect((await tenant.sdk.post(`/agent/escalation/${escalationId}/message`, { content: 'Thank you!' })).status).toBe(201);
    await transcript.getByText('Thank you!').waitFor();
    const aiConversation = page.locator('details.ai-conversation');
    if ((await aiConversation.count()) > 0) await aiConversation.locator('summary').click();
    await page.screenshot({ path: `${screenshotDir}console-escalation.png` });

    // Resolve.
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.locator('.escalation-head .badge.resolved').waitFor();
    const polled = await tenant.sdk.get(`/agent/escalation/${escalationId}`);
    expect(polled.body.data.status).toBe('resolved');
    await page.getByRole('button', { name: /^Resolved/ }).click();
    await item.waitFor();

    // On a narrow screen the escalation view stands alone.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: `${screenshotDir}console-narrow.png` });
    await context.close();
  });

  it("sees another operator's claim at once", async (ctx) => {
    if (!hasRoute('GET', '/escalations') || !hasRoute('POST', '/agent/escalation')) return ctx.skip();
    const tenant = await createTenant(server);
    const escalation = await tenant.sdk.post('/agent/escalation', { reason: 'agent_gave_up' });
    const escalationId = escalation.body.data.escalationId as string;
    const { context, page } = await signIn(tenant);
    await page.getByLabel('Your display name (shown to end users)').fill('Ada');
    await page.getByRole('button', { name: 'Save name' }).click();
    const item = page.locator(`a[data-escalation-id="${escalationId}"]`);
    await item.waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    // The other operator works through an operator key.
    expect((await tenant.operator.post(`/escalations/${escalationId}/claim`, { operatorName: 'Linus' })).status).toBe(200);
    await item.getByText('Linus').waitFor();
    await context.close();
  });
  it('creates a key shown once that works, then fails after revoke', async (ctx) => {
    if (!hasRoute('POST', '/admin/keys')) return ctx.skip();
    const tenant = await createTenant(server);
    const { context, page } = await signIn(tenant);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Browser-made key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const field = page.getByLabel('New API key');
    await field.waitFor();
    const key = await field.inputValue();
    expect(key).toMatch(/^ak_/);
    await page.screenshot({ path: `${screenshotDir}keys.png` });
    const withKey = { authorization: `Bearer ${key}` };
    expect((await fetch(`${server.url}/api/v1/agent/personalization`, { headers: withKey })).status).toBe(200);

    // Shown once: after "Done" the page holds only the prefix.
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.content()).not.toContain(key);
    await page.getByRole('button', { name: 'Revoke Browser-made key' }).click();
    await page.getByRole('button', { name: 'Confirm revoke' }).click();
    await page.locator('tr', { hasText: 'Browser-made key' }).getByText('revoked').waitFor();
    expect((await fetch(`${server.url}/api/v1/agent/personalization`, { headers: withKey })).status).toBe(401);
    await context.close();
  });

  it('saves personalization and GET /agent/personalization changes at once', async (ctx) => {
    if (!hasRoute('PATCH', '/admin/projects/:projectId') || !hasRoute('GET', '/agent/personalization')) return ctx.skip();
    const tenant = await createTenant(server);
    // Read first, so a stale cache would show if saving did not refresh it.
    expect((await tenant.sdk.get('/agent/personalization')).body.data.assistantName).toBeNull();
    const { context, page } = await signIn(tenant);
    await page.getByRole('link', { name: 'Project settings' }).click();
    await page.getByLabel('Assistant name').fill('Sam <b>the helper</b>');
    await page.getByLabel('Welcome message').fill('Hello from the dashboard!');
    await page.locator('#p-color-primary').fill('#0f766e');
    await page.locator('#p-mode').selectOption('dark');
    // The preview follows the draft before anything is saved, as text.
    const preview = page.getByTestId('widget-preview');
    await preview.getByText('Hello from the dashboard!').waitFor();
    expect(await preview.locator('b').count()).toBe(0);
    await page.locator('form', { hasText: 'Personalization' }).getByRole('button', { name: 'Save' }).click();
    await page.locator('form', { hasText: 'Personalization' }).getByText('Saved.').waitFor();
    const after = (await tenant.sdk.get('/agent/personalization')).body.data;
    expect(after).toMatchObject({ assistantName: 'Sam <b>the helper</b>', welcomeMessage: 'Hello from the dashboard!', theme: { mode: 'dark', colors: { primary: '#0f766e' } } });
    expect(after).not.toHaveProperty('personaPrompt');
    await page.evaluate('document.getElementById("section-personalization").scrollIntoView(); window.scrollBy(0, -24)');
    await page.screenshot({ path: `${screenshotDir}settings.png` });
    await context.close();
  });
  it('finds, views and deletes an identified user; adds a webhook endpoint and rotates its secret', async (ctx) => {
    if (!hasRoute('GET', '/admin/projects/:projectId/end-users') || !hasRoute('POST', '/agent/identify')) return ctx.skip();
    const tenant = await createTenant(server);
    await tenant.sdk.post('/agent/identify', { userId: 'u-ada', name: 'Ada Lovelace', identifiers: { email: 'ada@example.com' } });
    await tenant.sdk.post('/agent/identify', { userId: 'u-alan', name: 'Alan Turing' });
    const { context, page } = await signIn(tenant);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByText('Alan Turing').waitFor();
    await page.getByLabel('Search by user id or name').fill('lovelace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Alan Turing').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Ada Lovelace' }).click();
    await page.getByText('ada@example.com').first().waitFor();
    await page.getByRole('button', { name: 'Delete this user' }).click();
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByText('No one matches.').waitFor();
    expect((await tenant.user.get(`/admin/projects/${tenant.projectId}/end-users/u-ada`)).status).toBe(404);

    if (hasRoute('POST', '/admin/webhooks')) {
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('URL').fill('http://127.0.0.1:9/parley-events');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secretField = page.getByLabel('Secret', { exact: true });
      await secretField.waitFor();
      const first = await secretField.inputValue();
      expect(first.length).toBeGreaterThan(10);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByText('New secret for').waitFor();
      expect(await secretField.inputValue()).not.toBe(first);
      // One delivery that failed for good (the worker is off here, so the outcome is written directly).
      await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
      await server.database.db.updateTable('webhook_deliveries').set({ status: 'failed', attempts: 8, last_status_code: 500, last_error: 'endpoint answered 500', finished_at: new Date().toISOString() }).where('workspace_id', '=', tenant.workspaceId).execute();
      await page.getByRole('button', { name: 'Delivery log' }).click();
      await page.getByRole('table').waitFor();
      await page.screenshot({ path: `${screenshotDir}webhooks.png` });
      if (hasRoute('POST', '/admin/webhooks/deliveries/:deliveryId/retry')) {
        await page.getByRole('button', { name: /^Retry escalation-created delivery/ }).click();
        await page.getByRole('cell', { name: 'pending' }).waitFor();
        expect(await page.getByRole('button', { name: /^Retry / }).count()).toBe(0);
        const log = await tenant.user.get('/admin/webhooks');
        const deliveries = await tenant.user.get(`/admin/webhooks/${log.body.data.endpoints[0].id}/deliveries`);
        expect(deliveries.body.data.deliveries).toEqual([expect.objectContaining({ status: 'pending', attempts: 0 })]);
      }
    }
    await context.close();
  });
  it('shows analytics from the database', async (ctx) => {
    if (!hasRoute('GET', '/admin/analytics') || !hasRoute('POST', '/agent/message') || !hasRoute('POST', '/agent/escalation')) return ctx.skip();
    const tenant = await createTenant(server);
    await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { popularPromptFloor: 1 });
    for (const content of ['Track my order', 'Track my order', 'Change my address']) {
      expect((await tenant.sdk.post('/agent/message', { content, context: { currentScreen: 'home' } })).status).toBe(200);
    }
    const escalation = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    await tenant.operator.post(`/escalations/${escalation.body.data.escalationId}/message`, { content: 'Hi!' });
    const { context, page } = await signIn(tenant);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByTestId('total-conversations').getByText('4', { exact: true }).waitFor();
    await page.getByText('25 %').waitFor();
    await page.locator('.top-prompts li').first().getByText(/track my order/i).waitFor();
    await page.screenshot({ path: `${screenshotDir}analytics.png` });
    await context.close();
  });
});
