import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startAgentFixture, type AgentFixture } from '../agent/agent-support.js';
import { createTenant, type Tenant } from '../support/harness.js';
import { ParleyClient, type ParleyClientOptions } from '../../packages/client/src/index.js';

/** The real app plus a fake OpenAI-compatible model server: the agent tests' fixture. */
export type LiveFixture = AgentFixture;
export const startLiveFixture = startAgentFixture;

/** A tenant whose project's model is the fake upstream; `settings` go through the admin API. */
export async function fakeModelTenant(fixture: LiveFixture, settings: Record<string, unknown> = {}): Promise<Tenant> {
  const tenant = await createTenant(fixture.server, { model: 'openai-compatible:x', modelBaseUrl: fixture.upstream.baseUrl });
  if (Object.keys(settings).length > 0) {
    const changed = await tenant.user.patch(`/admin/projects/${tenant.projectId}`, settings);
    if (changed.status !== 200) throw new Error(`project settings: ${changed.status} ${JSON.stringify(changed.body)}`);
  }
  return tenant;
}

/** A client with tiny retry delays that counts the requests it sends, by "METHOD path". */
export function countingClient(options: ParleyClientOptions): { client: ParleyClient; sent: string[] } {
  const sent: string[] = [];
  const client = new ParleyClient({
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
    fetch: (input, init) => {
      sent.push(`${init?.method ?? 'GET'} ${new URL(input).pathname.replace('/api/v1', '')}`);
      return fetch(input, init);
    },
  });
  return { client, sent };
}

/** What the proxy does to POST /agent/message/stream (everything else passes through). */
export type StreamSabotage =
  | 'none'
  /** Destroy the connection before any byte of the response. */
  | 'drop-before-first-frame'
  /**
   * Forward frames up to and including the first tool-call, then cut the connection as soon as
   * the server sends its next tool-call or done (so every action is already stored).
   */
  | 'cut-after-first-tool-call';

export interface SabotageProxy {
  url: string;
  /** "METHOD path?query" of every request, in order. */
  requests: string[];
  /** Cuts every SSE response that is open right now (a forced reconnect). */
  cutOpenStreams(): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of the server that breaks streams on purpose: the message
 * stream in one chosen way, every escalation stream (`dropEscalationStreams`, to force
 * polling), or whatever SSE is open when the test calls cutOpenStreams().
 */
export async function startSabotageProxy(target: string, sabotage: StreamSabotage, options: { dropEscalationStreams?: boolean } = {}): Promise<SabotageProxy> {
  const targetUrl = new URL(target);
  const sockets = new Set<Socket>();
  const openStreams = new Set<ServerResponse>();
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method ?? 'GET'} ${(req.url ?? '/').replace('/api/v1', '')}`);
    const isStream = req.method === 'POST' && req.url === '/api/v1/agent/message/stream';
    const isEscalationStream = /^\/api\/v1\/agent\/escalation\/[^/]+\/stream/.test(req.url ?? '');
    if ((isStream && sabotage === 'drop-before-first-frame') || (isEscalationStream && options.dropEscalationStreams === true)) {
      req.resume();
      req.on('end', () => req.socket.destroy());
      return;
    }
    const upstream = httpRequest({ host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const isSse = (answer.headers['content-type'] ?? '').startsWith('text/event-stream');
      if (isSse) {
        openStreams.add(res);
        res.on('close', () => {
          openStreams.delete(res);
          answer.destroy();
        });
      }
      if (!isStream || sabotage !== 'cut-after-first-tool-call' || !isSse) {
        answer.pipe(res);
        return;
      }
      let buffer = '';
      let sawToolCall = false;
      answer.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 2);
          const isToolCall = frame.includes('"type":"tool-call"');
          if (sawToolCall && (isToolCall || frame.includes('"type":"done"'))) {
            // Flush what was forwarded, then close without the chunked terminator: a cut.
            answer.destroy();
            res.socket?.end();
            return;
          }
          if (isToolCall) sawToolCall = true;
          res.write(frame);
        }
      });
      answer.on('end', () => res.end());
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    cutOpenStreams() {
      for (const res of openStreams) res.socket?.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
