import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { createTenant, databaseUrlFor, startTestServer, testDialects } from '../support/harness.js';

/** Runs `parley …` in-process against the given database; returns exit code and output. */
async function parley(databaseUrl: string, args: string[], env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env });
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => ((stderr += String(chunk)), true));
  try {
    const code = await runCli(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.env = saved;
  }
}

describe.each(testDialects())('parley webhooks CLI on %s', (dialect) => {
  afterEach(() => vi.restoreAllMocks());

  it('adds, lists, shows deliveries and removes endpoints', async () => {
    const databaseUrl = databaseUrlFor(dialect);
    const server = await startTestServer(dialect, {}, { databaseUrl });
    try {
      const tenant = await createTenant(server);
      const refused = await parley(databaseUrl, ['webhooks', 'add', '--workspace-id', tenant.workspaceId, '--url', 'http://127.0.0.1:9/x']);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('private');

      const added = await parley(databaseUrl, ['webhooks', 'add', '--json', '--workspace-id', tenant.workspaceId, '--url', 'http://127.0.0.1:9/x', '--events', 'escalation-created'], { PARLEY_WEBHOOKS_ALLOW_PRIVATE: 'true' });
      expect(added.code).toBe(0);
      const created = JSON.parse(added.stdout);
      expect(created).toMatchObject({ secret: expect.stringMatching(/^whsec_/), endpoint: { url: 'http://127.0.0.1:9/x', eventTypes: ['escalation-created'] } });

      const listed = await parley(databaseUrl, ['webhooks', 'list', '--json', '--workspace-id', tenant.workspaceId]);
      expect(JSON.parse(listed.stdout).endpoints).toEqual([created.endpoint]);
      expect(listed.stdout).not.toContain('whsec_');

      await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
      const deliveries = await parley(databaseUrl, ['webhooks', 'deliveries', '--json', '--workspace-id', tenant.workspaceId]);
      expect(JSON.parse(deliveries.stdout).deliveries).toEqual([expect.objectContaining({ eventType: 'escalation-created', status: 'pending', attempts: 0 })]);

      const deliveryId = JSON.parse(deliveries.stdout).deliveries[0].id;
      const retried = await parley(databaseUrl, ['webhooks', 'retry', '--json', '--workspace-id', tenant.workspaceId, '--id', deliveryId]);
      expect(retried.code).toBe(0);
      expect(JSON.parse(retried.stdout).delivery).toMatchObject({ id: deliveryId, status: 'pending', attempts: 0 });
      const foreign = await parley(databaseUrl, ['webhooks', 'retry', '--workspace-id', 'wsp_other', '--id', deliveryId]);
      expect(foreign.code).not.toBe(0);
      expect(foreign.stderr).toContain('not found');

      const removed = await parley(databaseUrl, ['webhooks', 'remove', '--workspace-id', tenant.workspaceId, '--id', created.endpoint.id]);
      expect(removed.code).toBe(0);
      const again = await parley(databaseUrl, ['webhooks', 'remove', '--workspace-id', tenant.workspaceId, '--id', created.endpoint.id]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain('not found');
      const missing = await parley(databaseUrl, ['webhooks', 'list']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('--workspace-id');
    } finally {
      await server.close();
    }
  });
});
