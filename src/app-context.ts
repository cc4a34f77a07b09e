import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthHooks } from './auth/auth-hooks.js';
import type { Authenticator } from './auth/authenticator.js';
import type { Config } from './config/config.js';
import type { Database, Db } from './db/database.js';
import type { EventBus } from './events/event-bus.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { Lifecycle } from './lifecycle/lifecycle.js';
import type { OpenStreams } from './sse/open-streams.js';
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';

/**
 * Everything a feature needs from the outside world, built once in buildApp
 * and reachable from every route plugin as `app.parley`.
 */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly db: Db;
  readonly bus: EventBus;
  readonly authenticator: Authenticator;
  readonly auth: AuthHooks;
  /** Periodic background work, run once across all instances: `jobs.every(name, intervalMs, work)`. */
  readonly jobs: JobRunner;
  /** `lifecycle.shuttingDown` turns true when shutdown starts (readiness answers 503). */
  readonly lifecycle: Lifecycle;
  /** Open SSE streams; the SSE writer registers itself, shutdown ends them. */
  readonly streams: OpenStreams;
  /** The webhook worker; `wake()` after committing escalation events. */
  readonly webhooks: WebhookDispatcher;
  /** Work to run on close, in reverse order of registration (timers, subscriptions). */
  readonly onClose: (task: () => Promise<void> | void) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    parley: AppContext;
  }
}

/** The Fastify instance type route plugins receive: schemas give request and reply types. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
