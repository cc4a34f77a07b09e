import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  json: any;
  /** Status this receiver answered with. */
  answered: number;
}

/**
 * A local webhook receiver: records every POST and answers with the next
 * status of `script` (then 200 once the script is used up).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  script: number[] = [];
  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(): Promise<WebhookReceiver> {
    let self: WebhookReceiver | null = null;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const answered = self!.script.shift() ?? 200;
        self!.received.push({ headers: request.headers as Record<string, string>, body, json: JSON.parse(body), answered });
        response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'not now');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    self = new WebhookReceiver(server, `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`);
    return self;
  }

  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${this.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.received.slice(0, count);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The README's verification recipe, verbatim: true when one of the signatures matches. */
export function verifyWebhook(secret: string, headers: Record<string, string>, body: string, toleranceSeconds = 300): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const actual = Buffer.from(signature, 'base64');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  });
}
