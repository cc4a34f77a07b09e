import { reportCpuOnRequest } from './cpu-reporting.js';
import Fastify from 'fastify';

/** The baseline: a bare Fastify hello-world, no logger, no plugins. */
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
reportCpuOnRequest();
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
