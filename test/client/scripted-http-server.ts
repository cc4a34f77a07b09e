import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One scripted answer: a status and JSON body, or `drop` to destroy the connection unanswered. */
export type ScriptedAnswer = { status: number; body: unknown; headers?: Record<string, string> } | { drop: true };

export interface ScriptedHttpServer {
  url: string;
  /** Method and path of every request received, in order. */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

/**
 * A tiny HTTP server answering each request with the next scripted answer (the last one
 * repeats): a stand-in for a Parley server in the transport-level tests of the client.
 */
export async function startScriptedHttpServer(answers: ScriptedAnswer[]): Promise<ScriptedHttpServer> {
  const requests: ScriptedHttpServer['requests'] = [];
  const sockets = new Set<Socket>();
  let index = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
    req.resume();
    req.on('end', () => {
      const answer = answers[Math.min(index++, answers.length - 1)];
      if (answer === undefined || 'drop' in answer) {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req-${index}`, ...answer.headers });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const failure = (status: number, code: string) => ({ status, body: { success: false, error: { code, message: `${code} happened` } } });
export const success = (data: unknown, status = 200) => ({ status, body: { success: true, data } });
