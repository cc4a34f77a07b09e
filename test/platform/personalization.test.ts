import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels } from '../../src/events/event-bus.js';
import { PersonalizationCache, personalizationTtlMs } from '../../src/personalization/personalization-cache.js';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

const unset = {
  assistantName: null,
  assistantAvatar: null,
  emptyStateIcon: null,
  welcomeMessage: null,
  chatTitle: null,
  poweredByVisible: true,
  theme: { colors: {}, mode: 'light' },
  defaultLocale: null,
  triggerButtonColor: null,
  triggerButtonImageUrl: null,
};

describe.each(testDialects())('GET /agent/personalization on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('answers every field, null when unset, with the documented defaults', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.get('/agent/personalization');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: unset });
  });

  it('shows a save at once and never includes personaPrompt', async () => {
    const tenant = await createTenant(server);
    await tenant.sdk.get('/agent/personalization'); // warm the cache
    const saved = await tenant.user.patch(`/admin/projects/${tenant.projectId}`, {
      personaPrompt: 'You are Captain Secret.',
      personalization: { assistantName: 'Nova', poweredByVisible: false, theme: { colors: { primary: '#4f46e5' }, mode: 'dark' }, defaultLocale: 'pt-BR' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.personaPromptSet).toBe(true);
    const response = await tenant.sdk.get('/agent/personalization');
    expect(response.body.data).toEqual({ ...unset, assistantName: 'Nova', poweredByVisible: false, theme: { colors: { primary: '#4f46e5' }, mode: 'dark' }, defaultLocale: 'pt-BR' });
    expect(JSON.stringify(response.body)).not.toContain('Captain Secret');
    expect(JSON.stringify(saved.body)).not.toContain('Captain Secret');
    expect(response.body.data).not.toHaveProperty('personaPrompt');
  });

  it('serves from the cache until the bus announces a save', async () => {
    const tenant = await createTenant(server);
    await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { personalization: { chatTitle: 'Before' } });
    expect((await tenant.sdk.get('/agent/personalization')).body.data.chatTitle).toBe('Before');
    // A write that bypasses the service (and so the bus) is not seen: the cache answered.
    await server.database.db
      .updateTable('projects')
      .set({ personalization: JSON.stringify({ chatTitle: 'Behind the cache' }) })
      .where('id', '=', tenant.projectId)
      .execute();
    expect((await tenant.sdk.get('/agent/personalization')).body.data.chatTitle).toBe('Before');
    // The invalidation message alone (as another instance would send it) refreshes it.
    await server.bus.publish(channels.personalizationSaved, { projectId: tenant.projectId });
    await new Promise((resolve) => setImmediate(resolve));
    expect((await tenant.sdk.get('/agent/personalization')).body.data.chatTitle).toBe('Behind the cache');
  });

  it('replaces the whole document on save and validates it, naming the field', async () => {
    const tenant = await createTenant(server);
    await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { personalization: { assistantName: 'A', chatTitle: 'T' } });
    await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { personalization: { chatTitle: 'T2' } });
    expect((await tenant.sdk.get('/agent/personalization')).body.data).toMatchObject({ assistantName: null, chatTitle: 'T2' });
    for (const [personalization, field] of [
      [{ theme: { mode: 'neon' } }, 'body.personalization.theme.mode'],
      [{ poweredByVisible: 'yes' }, 'body.personalization.poweredByVisible'],
      [{ defaultLocale: 'not a locale' }, 'body.personalization.defaultLocale'],
      [{ personaPrompt: 'x' }, 'body.personalization.personaPrompt'],
    ] as const) {
      const response = await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { personalization });
      expect(response.status).toBe(422);
      expect(response.body.error.message).toContain(field);
    }
    expect((await tenant.sdk.get('/agent/personalization')).body.data.chatTitle).toBe('T2');
  });

  it("keeps each project's personalization to its own key", async () => {
    const a = await createTenant(server);
    const b = await createTenant(server);
    await a.user.patch(`/admin/projects/${a.projectId}`, { personalization: { assistantName: 'Only A' } });
    expect((await b.sdk.get('/agent/personalization')).body.data.assistantName).toBeNull();
    expect((await a.sdk.get('/agent/personalization')).body.data.assistantName).toBe('Only A');
  });

  it('expires cache entries after the TTL (1 hour in the server)', async () => {
    expect(personalizationTtlMs).toBe(3_600_000);
    const tenant = await createTenant(server);
    const cache = new PersonalizationCache(server.database.db, 40);
    expect((await cache.get(tenant.projectId))?.chatTitle).toBeNull();
    await server.database.db.updateTable('projects').set({ personalization: JSON.stringify({ chatTitle: 'Later' }) }).where('id', '=', tenant.projectId).execute();
    expect((await cache.get(tenant.projectId))?.chatTitle).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await cache.get(tenant.projectId))?.chatTitle).toBe('Later');
    expect(await cache.get('prj_missing')).toBeNull();
  });

  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'GET', path: () => '/agent/personalization', surface: 'sdk' });
});
