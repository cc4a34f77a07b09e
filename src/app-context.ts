import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthHooks } from './auth/auth-hooks.js';
import type { Authenticator } from './auth/authenticator.js';
import type { Config } from './config/config.js';
import type { Database, Db } from './db/database.js';
import type { EventBus } from './events/event-bus.js';
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
