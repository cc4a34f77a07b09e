import type { Config } from '../../src/config/config.js';
import { channels } from '../../src/events/event-bus.js';
import type { FakeUpstream, RecordedRequest } from '../fakes/fake-upstream-server.js';
import { startOpenAIUpstream } from '../fakes/openai-upstream.js';
import { createTenant, startTestServer, type DialectName, type Tenant, type TestServer } from '../support/harness.js';

export interface AgentFixture {
  server: TestServer;
  upstream: FakeUpstream;
  close(): Promise<void>;
}

/** The real app plus a fake OpenAI-compatible upstream, both on real ports. */
export async function startAgentFixture(dialect: DialectName, overrides: Partial<Config> = {}): Promise<AgentFixture> {
  const [server, upstream] = await Promise.all([startTestServer(dialect, { ssePingIntervalMs: 100, ...overrides }), startOpenAIUpstream()]);
  return {
    server,
    upstream,
    close: async () => {
      await upstream.close();
      await server.close();
    },
  };
}

/** A tenant whose project talks to the fake upstream as an openai-compatible model. */
export async function fakeModelTenant(fixture: AgentFixture, projectChanges: Record<string, unknown> = {}): Promise<Tenant> {
  const tenant = await createTenant(fixture.server, { model: 'openai-compatible:fake-llm', modelBaseUrl: fixture.upstream.url });
  if (Object.keys(projectChanges).length > 0) {
    await fixture.server.database.db.updateTable('projects').set(projectChanges).where('id', '=', tenant.projectId).execute();
    await announceProjectChange(fixture, tenant.projectId);
  }
  return tenant;
}

/** Requests the upstream received from this tenant's project (model name is shared, so by order). */
export function chatBodies(upstream: FakeUpstream): Array<{ messages: Array<Record<string, any>>; tools?: Array<{ function: { name: string; parameters: any } }>; stream?: boolean }> {
  return upstream.requests.filter((r: RecordedRequest) => r.path.endsWith('/chat/completions')).map((r) => r.body as any);
}

export interface SseFrame {
  type: string;
  [key: string]: any;
}

/** Reads an SSE response body to its end, parsing each `data:` frame (comments skipped). */
export async function readSse(response: Response): Promise<SseFrame[]> {
  const frames: SseFrame[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
      if (data !== '') frames.push(JSON.parse(data) as SseFrame);
    }
  }
  return frames;
}

export function postStream(tenant: Tenant, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(tenant.sdk.url('/agent/message/stream'), {
    method: 'POST',
    headers: { ...tenant.sdk.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

export async function insertActionType(fixture: AgentFixture, projectId: string, row: { type: string; mcpVersion?: string; description?: string; schema: object }): Promise<void> {
  await fixture.server.database.db
    .insertInto('project_action_types')
    .values({
      id: `pat_${Math.random().toString(36).slice(2)}`,
      project_id: projectId,
      mcp_version: row.mcpVersion ?? '',
      type: row.type,
      description: row.description ?? `${row.type} action`,
      payload_schema: JSON.stringify(row.schema),
      created_at: new Date().toISOString(),
    })
    .execute();
  await announceProjectChange(fixture, projectId);
}

/** Tests that write project rows directly say so on the bus, as the admin API does after a save. */
export async function announceProjectChange(fixture: AgentFixture, projectId: string): Promise<void> {
  await fixture.server.bus.publish(channels.projectUpdated, { projectId });
}
