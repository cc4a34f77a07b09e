import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../support/server-process.js';

const root = resolve(import.meta.dirname, '../..');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** CONTRACT.md: `parley serve` on a fresh checkout needs no configuration at all. */
describe('parley serve with no configuration', { timeout: 60_000 }, () => {
  it('creates ./data/, migrates, listens, logs its URL, and says once that it uses the demo model', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'parley-fresh-'));
    const port = await freePort();
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && !/^(PARLEY_|DATABASE_URL|REDIS_URL|OPENAI_API_KEY|ANTHROPIC_API_KEY|LOG_LEVEL)/.test(name)) env[name] = value;
    }
    env['PORT'] = String(port);
    const child = spawn(process.execPath, ['--import', tsx, join(root, 'src/cli/entry.ts'), 'serve'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    try {
      const deadline = Date.now() + 45_000;
      while (!output.includes('demo model') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      expect(health.status).toBe(200);
      expect(existsSync(join(cwd, 'data', 'parley.db'))).toBe(true);
      const lines = output.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; url?: string });
      expect(lines.some((line) => line.url === `http://127.0.0.1:${port}`)).toBe(true);
      expect(lines.filter((line) => line.msg.includes('offline demo model'))).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
