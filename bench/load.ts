import autocannon from 'autocannon';
import type { LoadJob } from './load-client.js';

/**
 * The load generator, in its own process so it never shares an event loop
 * with a server under test (started by runLoad in load-client.ts). Reads one
 * job as JSON from argv, prints the result.
 */
const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob;
const result = await autocannon({
  url: job.url,
  method: job.method,
  headers: job.headers,
  ...(job.body === undefined ? {} : { body: job.body }),
  connections: job.connections,
  pipelining: 1,
  duration: job.duration,
});
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
