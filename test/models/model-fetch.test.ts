import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFetch } from '../../src/models/model-fetch.js';

/** What the server saw of the last request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
const routes = new Map<string, (res: ServerResponse) => void>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const route = routes.get(req.url ?? '');
      if (route) route(res);
      else res.writeHead(404).end('no route');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('modelFetch (the http client under model providers)', () => {
  it('sends method, headers and the body in one sized request, and reads status, headers and body', async () => {
    routes.set('/echo', (res) => res.writeHead(201, [['content-type', 'application/json'], ['x-multi', 'a'], ['x-multi', 'b']]).end('{"ok":true}'));
    const response = await modelFetch(`${base}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer k' }, body: '{"q":"héllo"}' });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-multi')).toBe('a, b');
    expect(await response.json()).toEqual({ ok: true });
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', url: '/echo', body: '{"q":"héllo"}' });
    expect(request.headers).toMatchObject({ authorization: 'Bearer k', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength('{"q":"héllo"}')) });
    expect(request.headers['transfer-encoding']).toBeUndefined();
  });

  it('keeps the connection for the next call', async () => {
    const ports: number[] = [];
    routes.set('/port', (res) => res.end(String(ports.length)));
    const record = (req: IncomingMessage) => ports.push(req.socket.remotePort ?? 0);
    server.on('request', record);
    await (await modelFetch(`${base}/port`)).text();
    await (await modelFetch(`${base}/port`)).text();
    server.off('request', record);
    expect(ports).toHaveLength(2);
    expect(ports[1]).toBe(ports[0]);
  });

  it('accepts Headers and header pairs too', async () => {
    routes.set('/plain', (res) => res.end('fine'));
    await modelFetch(`${base}/plain`, { headers: new Headers({ 'X-One': '1' }) });
    expect(seen.at(-1)!.headers['x-one']).toBe('1');
    await modelFetch(new URL(`${base}/plain`), { headers: [['X-Two', '2']] });
    expect(seen.at(-1)!.headers['x-two']).toBe('2');
  });

  it.each([
    ['gzip', (text: string) => gzipSync(text)],
    ['br', (text: string) => brotliCompressSync(text)],
  ])('decompresses a %s answer', async (encoding, compress) => {
    routes.set(`/${encoding}`, (res) => res.writeHead(200, { 'content-encoding': encoding }).end(compress('{"compressed":true}')));
    expect(await (await modelFetch(`${base}/${encoding}`)).json()).toEqual({ compressed: true });
  });

  it('hands a redirect back as it is instead of following it with the credentials', async () => {
    routes.set('/moved', (res) => res.writeHead(307, { location: `${base}/echo` }).end());
    const before = seen.length;
    const response = await modelFetch(`${base}/moved`, { method: 'POST', headers: { authorization: 'Bearer secret' }, body: '{}' });
    expect(response.status).toBe(307);
    expect(seen.length).toBe(before + 1);
  });

  it('streams the body as it arrives', async () => {
    let finish: () => void = () => {};
    routes.set('/stream', (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await modelFetch(`${base}/stream`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    finish();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('ends a call, or a body being read, with the abort reason', async () => {
    routes.set('/slow', () => {});
    const early = modelFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) });
    await expect(early).rejects.toMatchObject({ name: 'TimeoutError' });

    routes.set('/stall', (res) => res.writeHead(200).write('partial'));
    const controller = new AbortController();
    const response = await modelFetch(`${base}/stall`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });

    await expect(modelFetch(`${base}/plain`, { signal: AbortSignal.abort(new DOMException('already', 'AbortError')) })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects a refused connection as fetch does: TypeError("fetch failed") with the network cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await modelFetch(`http://127.0.0.1:${port}/x`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(((failure as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('rejects an answer the fetch API cannot represent instead of crashing', async () => {
    routes.set('/weird', (res) => res.writeHead(600).end('odd'));
    const failure = await modelFetch(`${base}/weird`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
  });

  it('errors the body when the connection breaks off mid-way', async () => {
    routes.set('/cut', (res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('only a part');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const response = await modelFetch(`${base}/cut`);
    await expect(response.text()).rejects.toBeDefined();
  });
});
