import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { startTestServer, type TestServer } from '../support/harness.js';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real command as a separate process, on the given database. */
function parley(databaseUrl: string, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const contractKeys = ['dashboard', 'operatorKey', 'projectId', 'sdkKey', 'userToken', 'workspaceId'];

describe('the parley command, as a process, on SQLite', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-cli-'));
  const dbPath = join(dir, 'nested', 'parley.db');
  const databaseUrl = `sqlite:${dbPath}`;
  let server: TestServer;
  let first: { workspaceId: string; projectId: string; sdkKey: string; operatorKey: string; userToken: string; dashboard: { email: string; password: string } };

  beforeAll(async () => {
    // No server has opened this database yet: bootstrap creates and migrates it.
    expect(existsSync(dbPath)).toBe(false);
    const run = await parley(databaseUrl, 'bootstrap', '--json');
    expect(run.code, run.stderr).toBe(0);
    first = JSON.parse(run.stdout);
    server = await startTestServer('sqlite', {}, { databaseUrl });
  }, 120_000);
  afterAll(() => server?.close());

  it('bootstrap --json prints exactly one JSON object with the contract keys, and they work', async () => {
    expect(Object.keys(first).sort()).toEqual(contractKeys);
    expect(Object.keys(first.dashboard).sort()).toEqual(['email', 'password']);
    expect(first.sdkKey).toMatch(/^ak_/);
    expect(first.operatorKey).toMatch(/^ak_/);
    const sdk = new ApiClient(server.url, { authorization: `Bearer ${first.sdkKey}` });
    expect((await sdk.post('/agent/session', {})).status).toBe(201);
    // The operator key is valid (wrong scope here, not unknown).
    expect((await new ApiClient(server.url, { authorization: `Bearer ${first.operatorKey}` }).post('/agent/session', {})).status).toBe(403);
    const user = new ApiClient(server.url, { authorization: `Bearer ${first.userToken}`, 'x-workspace-id': first.workspaceId });
    expect((await user.get('/admin/projects')).body.data.projects.map((p: { id: string }) => p.id)).toEqual([first.projectId]);
    const login = await server.anonymous.post('/auth/login', first.dashboard);
    expect(login.status).toBe(200);
  });

  it('bootstrap --workspace-id adds a project to that workspace while the server runs', async () => {
    const run = await parley(databaseUrl, 'bootstrap', '--json', '--workspace-id', first.workspaceId, '--model', 'openai:gpt-4o-mini', '--model-api-key', 'sk-x');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const second = JSON.parse(run.stdout);
    expect(Object.keys(second).sort()).toEqual(contractKeys);
    expect(second.workspaceId).toBe(first.workspaceId);
    const user = new ApiClient(server.url, { authorization: `Bearer ${second.userToken}`, 'x-workspace-id': first.workspaceId });
    const project = await user.get(`/admin/projects/${second.projectId}`);
    expect(project.body.data).toMatchObject({ model: 'openai:gpt-4o-mini', modelApiKeySet: true });
    expect((await new ApiClient(server.url, { authorization: `Bearer ${second.sdkKey}` }).post('/agent/session', {})).status).toBe(201);
  });

  it('keys create, list and revoke', { timeout: 120_000 }, async () => {
    const created = await parley(databaseUrl, 'keys', 'create', '--workspace-id', first.workspaceId, '--name', 'ci', '--scope', 'sdk', '--project-id', first.projectId, '--json');
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ name: 'ci', scope: 'sdk', projectId: first.projectId, key: expect.stringMatching(/^ak_/) });
    const unused = JSON.parse((await parley(databaseUrl, 'keys', 'create', '--workspace-id', first.workspaceId, '--name', 'ops', '--scope', 'operator', '--json', '--expires-at', '2999-01-01T00:00:00Z')).stdout);
    expect(unused).toMatchObject({ scope: 'operator', projectId: null, expiresAt: '2999-01-01T00:00:00.000Z' });
    expect((await new ApiClient(server.url, { authorization: `Bearer ${key.key}` }).post('/agent/session', {})).status).toBe(201);

    const listed = await parley(databaseUrl, 'keys', 'list', '--workspace-id', first.workspaceId, '--json');
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    const keys = JSON.parse(listed.stdout);
    expect(keys.find((k: { id: string }) => k.id === key.id)).toMatchObject({ name: 'ci', scope: 'sdk', prefix: key.prefix, revokedAt: null });

    const revoked = await parley(databaseUrl, 'keys', 'revoke', '--workspace-id', first.workspaceId, unused.id);
    expect(revoked.code, revoked.stderr).toBe(0);
    const operatorClient = new ApiClient(server.url, { authorization: `Bearer ${unused.key}` });
    expect((await operatorClient.post('/agent/session', {})).status).toBe(401);
    const plain = await parley(databaseUrl, 'keys', 'list', '--workspace-id', first.workspaceId);
    expect(plain.stdout).toContain('REVOKED');
  });

  it('project set-model, set-persona and set-personalization', { timeout: 120_000 }, async () => {
    const user = new ApiClient(server.url, { authorization: `Bearer ${first.userToken}`, 'x-workspace-id': first.workspaceId });
    const model = await parley(databaseUrl, 'project', 'set-model', '--project-id', first.projectId, '--model', 'openai-compatible:llama3', '--model-base-url', 'http://127.0.0.1:11434/v1');
    expect(model.code, model.stderr).toBe(0);
    const personaFile = join(dir, 'persona.txt');
    writeFileSync(personaFile, 'You are Penny, a cheerful guide.');
    const persona = await parley(databaseUrl, 'project', 'set-persona', '--project-id', first.projectId, '--file', personaFile);
    expect(persona.code, persona.stderr).toBe(0);
    const personalization = await parley(databaseUrl, 'project', 'set-personalization', '--project-id', first.projectId, '--json', '{"assistantName":"Penny","theme":{"mode":"dark"}}');
    expect(personalization.code, personalization.stderr).toBe(0);

    const project = (await user.get(`/admin/projects/${first.projectId}`)).body.data;
    expect(project).toMatchObject({ model: 'openai-compatible:llama3', modelBaseUrl: 'http://127.0.0.1:11434/v1', personaPromptSet: true });
    expect(JSON.stringify(project)).not.toContain('Penny, a cheerful');
    const sdk = new ApiClient(server.url, { authorization: `Bearer ${first.sdkKey}` });
    expect((await sdk.get('/agent/personalization')).body.data).toMatchObject({ assistantName: 'Penny', theme: { colors: {}, mode: 'dark' } });
  });

  it('answers bad arguments with one line on stderr and a non-zero exit', async () => {
    const cases: Array<[string[], string]> = [
      [['keys', 'create', '--workspace-id', first.workspaceId, '--name', 'x', '--scope', 'root'], '--scope'],
      [['keys', 'create', '--name', 'x', '--scope', 'sdk'], '--workspace-id'],
      [['keys', 'list', '--workspace-id', first.workspaceId, '--bogus'], 'bogus'],
      [['project', 'set-model', '--project-id', first.projectId, '--model', 'gpt4'], 'PROVIDER:MODEL'],
      [['project', 'set-personalization', '--project-id', first.projectId, '--json', '{nope'], 'JSON'],
      [['project', 'set-personalization', '--project-id', first.projectId, '--json', '{"theme":{"mode":"neon"}}'], 'personalization.theme.mode'],
      [['keys', 'create', '--workspace-id', 'ws_nope', '--name', 'x', '--scope', 'operator'], 'ws_nope'],
      [['frobnicate'], 'unknown command'],
    ];
    const runs = await Promise.all(cases.map(([args]) => parley(databaseUrl, ...args)));
    runs.forEach((run, index) => {
      const [args, text] = cases[index]!;
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr, args.join(' ')).toContain(text);
    });
  }, 120_000);
});
