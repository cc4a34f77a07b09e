import type { FastifyInstance } from 'fastify';
import type { JobRunner } from '../jobs/job-runner.js';
import type { OpenStreams } from '../sse/open-streams.js';

/**
 * Whether this instance is shutting down. Set as soon as shutdown starts, so
 * GET /ready answers 503 and load balancers stop sending new traffic while
 * in-flight requests finish.
 */
export class Lifecycle {
  private draining = false;

  get shuttingDown(): boolean {
    return this.draining;
  }

  beginShutdown(): void {
    this.draining = true;
  }
}

/**
 * Wires graceful shutdown into app.close(). Fastify's close runs preClose
 * hooks, stops accepting, waits for in-flight requests, then runs onClose
 * hooks. Before it waits we: mark the instance not ready, end subscription
 * SSE streams (they would hold the close forever), tell the job runner to
 * stop (awaited in onClose, before the database closes), and arm a timer
 * that cuts whatever is still open after `timeoutMs`.
 */
export function installGracefulShutdown(app: FastifyInstance, parts: { lifecycle: Lifecycle; streams: OpenStreams; jobs: JobRunner; timeoutMs: number }): void {
  let forceTimer: NodeJS.Timeout | undefined;
  let jobsStopped: Promise<void> = Promise.resolve();

  // Every response sent during shutdown closes its connection, so keep-alive
  // clients reconnect elsewhere and idle sockets do not hold the close open.
  // Callback-style: it runs on every response, where an async hook's promise costs measurably.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (parts.lifecycle.shuttingDown) reply.header('Connection', 'close');
    done(null, payload);
  });

  app.addHook('preClose', async () => {
    parts.lifecycle.beginShutdown();
    parts.streams.endAll({ all: false });
    forceTimer = setTimeout(() => {
      app.log.warn({ openStreams: parts.streams.size }, 'shutdown timeout reached; closing remaining connections');
      parts.streams.endAll({ all: true });
      app.server.closeAllConnections();
    }, parts.timeoutMs);
    forceTimer.unref();
    // Not awaited here: the listener must close now; the database closes only after onClose.
    jobsStopped = parts.jobs.stop(parts.timeoutMs);
  });

  app.addHook('onClose', async () => {
    await jobsStopped;
    clearTimeout(forceTimer);
  });
}
