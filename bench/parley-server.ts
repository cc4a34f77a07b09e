import { reportCpuOnRequest } from './cpu-reporting.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/logging/logger.js';
import { startServer } from '../src/server.js';

/** Parley as `parley serve` runs it (real config, logger, migrations), on the port the OS gives. */
const config = { ...loadConfig(), port: 0, host: '127.0.0.1' };
const server = await startServer(config, createLogger(config.logLevel));
reportCpuOnRequest();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
