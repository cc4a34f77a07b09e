import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAllPopularPrompts } from '../../src/prompts/popular-prompt-computation.js';
import { containsPersonalData, normalizePrompt } from '../../src/prompts/prompt-normalization.js';
import { recordOpeningPrompt } from '../../src/prompts/prompt-recorder.js';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type Tenant, type TestServer } from '../support/harness.js';

describe('prompt normalization and the personal-data rule', () => {
  it('normalizes case, whitespace and trailing punctuation', () => {
    expect(normalizePrompt('  How do I   RESET my\tpassword?? ')).toBe('how do i reset my password');
    expect(normalizePrompt('how do i reset my password.')).toBe('how do i reset my password');
    expect(normalizePrompt('Où est ma commande ?!')).toBe('où est ma commande');
    expect(normalizePrompt(' ?! ')).toBeNull();
    expect(normalizePrompt('x'.repeat(201))).toBeNull();
  });

  it('spots e-mail addresses, phone numbers and runs of 6+ digits', () => {
    expect(containsPersonalData('mail me at ada@example.com')).toBe(true);
    expect(containsPersonalData('call +1 (555) 123-4567')).toBe(true);
    expect(containsPersonalData('call 555 123 4567')).toBe(true);
    expect(containsPersonalData('order 1234567')).toBe(true);
    expect(containsPersonalData('order 123456')).toBe(true);
    expect(containsPersonalData('top 10 features of 2024')).toBe(false);
    expect(containsPersonalData('open settings')).toBe(false);
  });
});

describe.each(testDialects())('GET /agent/popular-prompts on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { popularPromptsIntervalMs: 3_600_000 });
  });
  afterAll(() => server.close());

  let counter = 0;
  /** Opening prompts as the agent records them, each in a session of its own unless given. */
  async function ask(tenant: Tenant, content: string, screen: string | null, times = 1, sessionId?: string) {
    for (let i = 0; i < times; i++) {
      counter += 1;
      await recordOpeningPrompt(server.database.db, {
        projectId: tenant.projectId,
        sessionId: sessionId ?? `ses_test${counter}`,
        screen,
        content,
        at: new Date(Date.now() + counter).toISOString(),
      });
    }
  }

  it('answers the documented shape, computing once on first request', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.get('/agent/popular-prompts');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ devDefined: [], screenPopular: [], globalPopular: [], computedAt: expect.any(String) });
    expect(Date.parse(response.body.data.computedAt)).toBeGreaterThan(Date.now() - 60_000);
    const again = await tenant.sdk.get('/agent/popular-prompts');
    expect(again.body.data.computedAt).toBe(response.body.data.computedAt);
  });

  it('counts distinct sessions, applies the floor, ranks by count then recency', async () => {
    const tenant = await createTenant(server);
    await ask(tenant, 'How do I reset my password?', 'settings', 4);
    await ask(tenant, 'how do i  reset my password', 'settings', 1);
    await ask(tenant, 'Track my order', 'orders', 3);
    await ask(tenant, 'Talk to a human', 'orders', 3);
    await ask(tenant, 'rare question', 'orders', 2);
    // Asked five times in one session: counts once.
    for (let i = 0; i < 5; i++) await ask(tenant, 'spam spam', null, 1, 'ses_one');
    await tenant.sdk.get('/agent/popular-prompts'); // first snapshot, before the run below
    await computeAllPopularPrompts(server.database.db);
    const response = await tenant.sdk.get('/agent/popular-prompts?screen=orders');
    expect(response.body.data.globalPopular).toEqual(['how do i reset my password', 'talk to a human', 'track my order']);
    expect(response.body.data.screenPopular).toEqual(['talk to a human', 'track my order']);
    const settings = await tenant.sdk.get('/agent/popular-prompts?screen=settings&limit=1');
    expect(settings.body.data.screenPopular).toEqual(['how do i reset my password']);
    expect(settings.body.data.globalPopular).toEqual(['how do i reset my password']);
  });

  it('uses the project floor and never shows personal data', async () => {
    const tenant = await createTenant(server);
    await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { popularPromptFloor: 1 });
    await ask(tenant, 'my email is ada@example.com', null, 3);
    await ask(tenant, 'call me on 020 7946 0000', null, 3);
    await ask(tenant, 'refund order 9876543', null, 3);
    await ask(tenant, 'once only', null, 1);
    // Stored before the rule existed (straight into the table): dropped at compute time too.
    await server.database.db
      .insertInto('prompt_openings')
      .values({ project_id: tenant.projectId, prompt: 'card 4111111111111111', screen: '', session_id: 'ses_old', last_at: new Date().toISOString() })
      .execute();
    await computeAllPopularPrompts(server.database.db);
    expect((await tenant.sdk.get('/agent/popular-prompts')).body.data.globalPopular).toEqual(['once only']);
    const stored = await server.database.db.selectFrom('prompt_openings').select('prompt').where('project_id', '=', tenant.projectId).execute();
    expect(stored.map((row) => row.prompt).sort()).toEqual(['card 4111111111111111', 'once only']);
  });

  it('serves dev-defined prompts per screen, else global', async () => {
    const tenant = await createTenant(server);
    const saved = await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { devPrompts: { global: ['What can you do?', 'Help'], screens: { cart: ['Apply a coupon'] } } });
    expect(saved.status).toBe(200);
    expect((await tenant.sdk.get('/agent/popular-prompts')).body.data.devDefined).toEqual(['What can you do?', 'Help']);
    expect((await tenant.sdk.get('/agent/popular-prompts?screen=cart')).body.data.devDefined).toEqual(['Apply a coupon']);
    expect((await tenant.sdk.get('/agent/popular-prompts?screen=home')).body.data.devDefined).toEqual([]);
    expect((await tenant.sdk.get('/agent/popular-prompts?limit=1')).body.data.devDefined).toEqual(['What can you do?']);
  });

  it('limit: default 5, maximum 20, 422 above or below', async () => {
    const tenant = await createTenant(server);
    await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { popularPromptFloor: 1, devPrompts: { global: Array.from({ length: 30 }, (_, i) => `p${i}`), screens: {} } });
    expect((await tenant.sdk.get('/agent/popular-prompts')).body.data.devDefined).toHaveLength(5);
    expect((await tenant.sdk.get('/agent/popular-prompts?limit=20')).body.data.devDefined).toHaveLength(20);
    for (const limit of ['21', '0', 'abc', '-1', '2.5']) {
      const response = await tenant.sdk.get(`/agent/popular-prompts?limit=${limit}`);
      expect(response.status, limit).toBe(422);
      expect(response.body.error.message).toContain('query.limit');
    }
  });

  it('learns from real opening messages sent through POST /agent/message', async () => {
    const tenant = await createTenant(server);
    for (const content of ['How do I reset my password?', 'how do I reset my PASSWORD', '  How do I reset my password!  ']) {
      const sent = await tenant.sdk.post('/agent/message', { content, context: { currentScreen: 'settings' } });
      expect(sent.status).toBe(200);
    }
    // A second message in the same session is not a new session: still three.
    const first = await tenant.sdk.post('/agent/message', { content: 'Track my order', context: { currentScreen: 'orders' } });
    await tenant.sdk.post('/agent/message', { content: 'track my order', sessionId: first.body.data.sessionId, context: { currentScreen: 'orders' } });
    await computeAllPopularPrompts(server.database.db);
    const settings = await tenant.sdk.get('/agent/popular-prompts?screen=settings');
    expect(settings.body.data.screenPopular).toEqual(['how do i reset my password']);
    expect(settings.body.data.globalPopular).toEqual(['how do i reset my password']);
    expect((await tenant.sdk.get('/agent/popular-prompts?screen=orders')).body.data.screenPopular).toEqual([]);
  });

  it('keeps projects apart', async () => {
    const a = await createTenant(server);
    const b = await createTenant(server);
    await ask(a, 'only in a', null, 3);
    await computeAllPopularPrompts(server.database.db);
    expect((await a.sdk.get('/agent/popular-prompts')).body.data.globalPopular).toEqual(['only in a']);
    expect((await b.sdk.get('/agent/popular-prompts')).body.data.globalPopular).toEqual([]);
  });

  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'GET', path: () => '/agent/popular-prompts', surface: 'sdk' });
});

describe.each(testDialects())('the periodic popular-prompts job on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { popularPromptsIntervalMs: 100 });
  });
  afterAll(() => server.close());

  it('recomputes on its interval and moves computedAt', async () => {
    const tenant = await createTenant(server);
    const first = (await tenant.sdk.get('/agent/popular-prompts')).body.data;
    for (let i = 0; i < 3; i++) {
      await recordOpeningPrompt(server.database.db, { projectId: tenant.projectId, sessionId: `ses_job${i}`, screen: null, content: 'Where is my parcel?', at: new Date().toISOString() });
    }
    const deadline = Date.now() + 5_000;
    let latest = first;
    while (Date.now() < deadline && latest.globalPopular.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      latest = (await tenant.sdk.get('/agent/popular-prompts')).body.data;
    }
    expect(latest.globalPopular).toEqual(['where is my parcel']);
    expect(latest.computedAt > first.computedAt).toBe(true);
  });
});
