import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/app-context.js';
import { configWith, type Config } from '../../src/config/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { EventBus } from '../../src/events/event-bus.js';
import { InProcessEventBus } from '../../src/events/in-process-event-bus.js';
import { bootstrap } from '../../src/provisioning/bootstrap.js';
import { validateModelSetting } from '../../src/projects/model-setting.js';
import { ApiClient } from './api-client.js';

export type DialectName = 'sqlite' | 'postgres';

/** The dialects this run covers: SQLite always, PostgreSQL when its URL is set. */
export function testDialects(): DialectName[] {
  return inject('postgresUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A fresh database URL of the dialect: a temp SQLite file, or this run's PostgreSQL schema. */
export function databaseUrlFor(dialect: DialectName): string {
  if (dialect === 'postgres') return inject('postgresUrl');
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'parley-test-')), 'parley.db')}`;
}

export interface TestServer {
  app: App;
  url: string;
  config: Config;
  database: Database;
  bus: EventBus;
  /** A client without credentials, for the tenant-free routes. */
  anonymous: ApiClient;
  close(): Promise<void>;
}

/** The real app on a real port, over a real database of the dialect. */
export async function startTestServer(dialect: DialectName, overrides: Partial<Config> = {}, options: { bus?: EventBus; databaseUrl?: string; logger?: FastifyBaseLogger } = {}): Promise<TestServer> {
  // The webhook worker is off unless a test turns it on: on PostgreSQL every test file shares one
  // schema, and a worker of another file (other settings) must not take this file's deliveries.
  // Rate limits are off unless a test turns them on: bursts of test traffic are not abuse.
  const defaults = configWith({});
  const config = configWith({ logLevel: 'silent', port: 0, databaseUrl: options.databaseUrl ?? databaseUrlFor(dialect), webhookDeliveryEnabled: false, rateLimits: { ...defaults.rateLimits, enabled: false }, ...overrides });
  const database = openDatabase(config.databaseUrl, { poolSize: 5 });
  await migrateToLatest(database);
  const bus = options.bus ?? new InProcessEventBus();
  const app = await buildApp({ config, database, bus, logger: options.logger ?? pino({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    url,
    config,
    database,
    bus,
    anonymous: new ApiClient(url),
    close: async () => {
      const closing = app.close();
      // fetch may hold a spare connection that never sent a request; Node waits for such a
      // socket until the client's keep-alive timeout (4 s), so teardown cuts it after a grace.
      setTimeout(() => app.server.closeAllConnections(), 200).unref();
      await closing;
      await bus.close();
      await database.close();
    },
  };
}

export interface Tenant {
  workspaceId: string;
  projectId: string;
  sdkKey: string;
  operatorKey: string;
  userToken: string;
  dashboard: { email: string; password: string };
  /** Client with the sdk key: the /agent surface. */
  sdk: ApiClient;
  /** Client with the operator key: the /escalations surface. */
  operator: ApiClient;
  /** Client with the user token and X-Workspace-Id: operator and admin routes. */
  user: ApiClient;
}

/** A new workspace with one project, both keys and a dashboard user: one per test. */
export async function createTenant(server: TestServer, options: { model?: string; modelBaseUrl?: string; modelApiKey?: string; workspaceId?: string } = {}): Promise<Tenant> {
  const result = await bootstrap(
    server.database.db,
    { workspaceId: options.workspaceId, model: options.model, modelBaseUrl: options.modelBaseUrl, modelApiKey: options.modelApiKey, userTokenTtlSeconds: 3600 },
    validateModelSetting,
  );
  return {
    ...result,
    sdk: new ApiClient(server.url, { authorization: `Bearer ${result.sdkKey}` }),
    operator: new ApiClient(server.url, { authorization: `Bearer ${result.operatorKey}` }),
    user: new ApiClient(server.url, { authorization: `Bearer ${result.userToken}`, 'x-workspace-id': result.workspaceId }),
  };
}
