import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ParleyClient, ParleyError } from '@parley/client';

/*
 * The shop's own backend. It is the only place that knows the Parley sdk key: the
 * browser talks to these few /api/chat routes, and each one forwards to Parley
 * through @parley/client (section 5 rule 8: keys belong on servers).
 */

export interface ShopServerOptions {
  /** Root URL of the Parley server, e.g. http://127.0.0.1:8787. */
  parleyUrl: string;
  /** The project's sdk-scoped key; never sent to the browser. */
  sdkKey: string;
  port?: number;
  host?: string;
  /** The signed-in shop customer (a real shop would take it from its own session). */
  customer?: { userId: string; name: string; email: string };
}

export interface ShopServer {
  url: string;
  close(): Promise<void>;
}

const publicFolder = fileURLToPath(new URL('./public/', import.meta.url));
const staticFiles: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/styles.css': { file: 'styles.css', type: 'text/css; charset=utf-8' },
};
const maxBodyBytes = 64 * 1024;

export async function startShopServer(options: ShopServerOptions): Promise<ShopServer> {
  const parley = new ParleyClient({ baseUrl: options.parleyUrl, apiKey: options.sdkKey });
  const customer = options.customer ?? { userId: 'customer-ada', name: 'Ada Lovelace', email: 'ada@example.com' };

  const routes: Array<{ method: string; pattern: RegExp; handle: (request: IncomingMessage, response: ServerResponse, match: RegExpMatchArray) => Promise<void> }> = [
    {
      // The panel's look and suggestions: personalization plus popular prompts for the screen.
      method: 'GET',
      pattern: /^\/api\/chat\/setup$/,
      handle: async (request, response) => {
        const screen = new URL(request.url ?? '/', 'http://shop').searchParams.get('screen') ?? undefined;
        const [personalization, prompts] = await Promise.all([parley.personalization(), parley.popularPrompts({ screen, limit: 4 })]);
        sendJson(response, 200, { personalization, prompts, customer: { name: customer.name } });
      },
    },
    {
      // A chat session for this customer, identified so an operator sees a name, not an id.
      method: 'POST',
      pattern: /^\/api\/chat\/session$/,
      handle: async (_request, response) => {
        const { sessionId } = await parley.createSession({ userId: customer.userId });
        await parley.identify({ userId: customer.userId, name: customer.name, identifiers: { email: customer.email } });
        sendJson(response, 200, { sessionId });
      },
    },
    {
      // The reply as SSE frames; the SDK falls back to POST /agent/message and recovers after drops.
      method: 'POST',
      pattern: /^\/api\/chat\/stream$/,
      handle: async (request, response) => {
        const body = await readJson(request);
        const controller = new AbortController();
        response.on('close', () => controller.abort());
        openSse(response);
        try {
          for await (const frame of parley.streamMessage({ content: String(body['content'] ?? ''), sessionId: optionalString(body['sessionId']), context: contextOf(body) }, { signal: controller.signal })) {
            response.write(`data: ${JSON.stringify(frame)}\n\n`);
          }
        } catch (error) {
          if (!controller.signal.aborted) response.write(`data: ${JSON.stringify({ type: 'error', ...publicError(error) })}\n\n`);
        }
        response.end();
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/chat\/continue$/,
      handle: async (request, response) => {
        const body = await readJson(request);
        const reply = await parley.continueTurn({
          sessionId: String(body['sessionId'] ?? ''),
          results: Array.isArray(body['results']) ? body['results'] : [],
          context: contextOf(body) ?? {},
          hop: typeof body['hop'] === 'number' ? body['hop'] : undefined,
        } as Parameters<typeof parley.continueTurn>[0]);
        sendJson(response, 200, reply);
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/chat\/escalate$/,
      handle: async (request, response) => {
        const body = await readJson(request);
        const escalation = await parley.escalate({ sessionId: optionalString(body['sessionId']), reason: 'user_requested', note: optionalString(body['note']) });
        sendJson(response, 200, escalation);
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/chat\/escalation\/([\w-]{1,64})\/message$/,
      handle: async (request, response, match) => {
        const body = await readJson(request);
        sendJson(response, 200, await parley.sendEscalationMessage(match[1] ?? '', String(body['content'] ?? '')));
      },
    },
    {
      // Operator replies and status changes, relayed live; the SDK reconnects and dedupes upstream.
      method: 'GET',
      pattern: /^\/api\/chat\/escalation\/([\w-]{1,64})\/events$/,
      handle: async (_request, response, match) => {
        const controller = new AbortController();
        response.on('close', () => controller.abort());
        openSse(response);
        const ping = setInterval(() => response.write(': ping\n\n'), 15_000);
        try {
          for await (const event of parley.escalationEvents(match[1] ?? '', { signal: controller.signal, pollIntervalMs: 2_000 })) {
            response.write(`data: ${JSON.stringify(event)}\n\n`);
          }
        } catch (error) {
          if (!controller.signal.aborted) response.write(`data: ${JSON.stringify({ type: 'error', ...publicError(error) })}\n\n`);
        } finally {
          clearInterval(ping);
        }
        response.end();
      },
    },
  ];

  const server = createServer((request, response) => {
    void (async () => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const asset = staticFiles[path] ?? (request.method === 'GET' && !path.startsWith('/api/') ? staticFiles['/'] : undefined);
      if (asset && request.method === 'GET') {
        response.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' });
        response.end(await readFile(`${publicFolder}${asset.file}`));
        return;
      }
      for (const route of routes) {
        const match = request.method === route.method ? path.match(route.pattern) : null;
        if (match) {
          await route.handle(request, response, match);
          return;
        }
      }
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    })().catch((error: unknown) => {
      if (response.headersSent) response.end();
      else sendJson(response, error instanceof ParleyError ? error.status || 502 : 400, { error: publicError(error) });
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve()));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the browser may see of a failure: code and message, never the key or internals. */
function publicError(error: unknown): { code: string; message: string } {
  if (error instanceof ParleyError) return { code: error.code, message: error.message };
  return { code: 'BAD_REQUEST', message: error instanceof Error ? error.message : 'request failed' };
}

function contextOf(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const context = body['context'];
  return typeof context === 'object' && context !== null && !Array.isArray(context) ? (context as Record<string, unknown>) : undefined;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function openSse(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' });
  response.flushHeaders();
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const value: unknown = text === '' ? {} : JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('body must be a JSON object');
  return value as Record<string, unknown>;
}
