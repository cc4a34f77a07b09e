import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, AppContext } from './app-context.js';
import { actionRoutes } from './agent/action-routes.js';
import { agentRoutes } from './agent/agent-routes.js';
import { authHooks } from './auth/auth-hooks.js';
import { Authenticator } from './auth/authenticator.js';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import type { EventBus } from './events/event-bus.js';
import { healthRoutes } from './health/health-routes.js';
import { installErrorHandler } from './http/error-handler.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installNulGuard } from './http/nul-guard.js';
import { installRequestLogging, requestIdFrom } from './http/request-logging.js';
import { installValidation } from './http/validation.js';
import { installOpenApi, openApiRoutes } from './openapi/openapi.js';
import { sessionRoutes } from './sessions/session-routes.js';
import { escalationRoutes } from './escalations/escalation-routes.js';
import { operatorRoutes } from './escalations/operator-routes.js';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';
import { SseStream } from './sse/sse-writer.js';
import { authRoutes } from './users/auth-routes.js';
import { actionTypeAdminRoutes } from './admin/action-type-admin-routes.js';
import { endUserAdminRoutes } from './admin/end-user-admin-routes.js';
import { keyAdminRoutes } from './admin/key-admin-routes.js';
import { projectAdminRoutes } from './admin/project-admin-routes.js';
import { identifyRoutes } from './identify/identify-routes.js';
import { PersonalizationCache } from './personalization/personalization-cache.js';
import { personalizationRoutes } from './personalization/personalization-routes.js';
import { PopularPromptsJob } from './prompts/popular-prompts-job.js';
import { popularPromptRoutes } from './prompts/popular-prompt-routes.js';

export interface AppDependencies {
  config: Config;
  database: Database;
  bus: EventBus;
  logger: FastifyBaseLogger;
}

/**
 * Builds the whole HTTP application on the given database and bus, ready to
 * `listen` or to be driven by tests. It owns no process-level concerns
 * (signals, migrations, ports): see server.ts.
 */
export async function buildApp(deps: AppDependencies): Promise<App> {
  const app = Fastify({
    loggerInstance: deps.logger,
    // Our own one-line-per-request log replaces Fastify's two (see request-logging.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: false,
    return503OnClosing: true,
    ajv: { customOptions: { strict: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const closeTasks: Array<() => Promise<void> | void> = [];
  const authenticator = new Authenticator(deps.database.db, (error) => app.log.warn({ err: error }, 'could not record key use'));
  await authenticator.listen(deps.bus);

  const context: AppContext = {
    config: deps.config,
    database: deps.database,
    db: deps.database.db,
    bus: deps.bus,
    authenticator,
    auth: authHooks(authenticator),
    webhooks: new WebhookDispatcher(deps.database.db, deps.config, app.log),
    onClose: (task) => closeTasks.push(task),
  };
  app.decorate('parley', context);

  const personalizationCache = new PersonalizationCache(deps.database.db);
  context.onClose(await personalizationCache.listen(deps.bus));
  const popularPrompts = new PopularPromptsJob(deps.database.db, deps.config.popularPromptsIntervalMs, (error) => app.log.error({ err: error }, 'popular prompts computation failed'));
  popularPrompts.start();
  context.onClose(() => popularPrompts.stop());
  app.decorateRequest('principal', null);
  app.addHook('onClose', async () => {
    for (const task of closeTasks.reverse()) await task();
  });

  installValidation(app);
  installJsonBodyParser(app);
  installErrorHandler(app);
  installRequestLogging(app);
  installNulGuard(app);
  await installOpenApi(app);

  await app.register(async (api) => {
    const scoped = api as unknown as App;
    await healthRoutes(scoped);
    await openApiRoutes(scoped);
    await authRoutes(scoped);
    await sessionRoutes(scoped);
    await identifyRoutes(scoped);
    await personalizationRoutes(scoped, personalizationCache);
    await popularPromptRoutes(scoped);
    await projectAdminRoutes(scoped);
    await actionTypeAdminRoutes(scoped);
    await keyAdminRoutes(scoped);
    await endUserAdminRoutes(scoped);
    await agentRoutes(scoped);
    await actionRoutes(scoped);
    await escalationRoutes(scoped);
    await operatorRoutes(scoped);
    await webhookRoutes(scoped);
  }, { prefix: '/api/v1' });

  SseStream.endAllOnClose(app);
  context.webhooks.start();
  context.onClose(() => context.webhooks.stop());

  return app as unknown as App;
}
