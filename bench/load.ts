import autocannon from 'autocannon';

/**
 * The load generator, in its own process so it never shares an event loop
 * with a server under test. Reads one job as JSON from argv, prints the result.
 */
interface Job {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
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
