import { afterEach, describe, expect, it } from 'vitest';
import { databaseUrlFor, startTestServer, testDialects, type TestServer } from '../support/harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  instance: string;
  startedAt: number;
  endedAt: number;
}

describe.each(testDialects())('periodic jobs across instances on %s', (dialect) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  async function instances(count: number): Promise<TestServer[]> {
    const databaseUrl = databaseUrlFor(dialect);
    for (let i = 0; i < count; i++) servers.push(await startTestServer(dialect, {}, { databaseUrl }));
    return servers;
  }

  it('runs a job about once per interval across three instances, never two runs at once', async () => {
    const apps = await instances(3);
    const name = `test-once-${Math.random().toString(36).slice(2)}`;
    const runs: Run[] = [];
    for (const server of apps) {
      server.app.parley.jobs.every(name, 200, async () => {
        const run = { instance: server.app.parley.jobs.instanceId, startedAt: Date.now(), endedAt: 0 };
        await sleep(40);
        run.endedAt = Date.now();
        runs.push(run);
      });
    }
    await sleep(2000);
    // Three unco-ordinated instances would make ~30 runs in 2 s; one lease makes ≤ 11.
    expect(runs.length).toBeGreaterThanOrEqual(4);
    expect(runs.length).toBeLessThanOrEqual(11);
    const ordered = [...runs].sort((a, b) => a.startedAt - b.startedAt);
    for (let i = 1; i < ordered.length; i++) expect(ordered[i]!.startedAt).toBeGreaterThanOrEqual(ordered[i - 1]!.endedAt);
  });

  it('hands an in-progress run back on shutdown so another instance takes it at once', async () => {
    const [first, second] = await instances(2);
    const name = `test-handback-${Math.random().toString(36).slice(2)}`;
    const startedOn: string[] = [];
    let release: () => void = () => {};
    const firstStarted = new Promise<void>((resolve) => (release = resolve));
    first!.app.parley.jobs.every(name, 8000, async (signal) => {
      startedOn.push('first');
      release();
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    });
    await firstStarted;
    second!.app.parley.jobs.every(name, 8000, async () => {
      startedOn.push('second');
    });
    await sleep(300);
    // The lease runs for 8 s: the second instance must not start it meanwhile.
    expect(startedOn).toEqual(['first']);
    await first!.close();
    servers.splice(servers.indexOf(first!), 1);
    const deadline = Date.now() + 8000;
    while (!startedOn.includes('second') && Date.now() < deadline) await sleep(50);
    expect(startedOn).toEqual(['first', 'second']);
  });
});
