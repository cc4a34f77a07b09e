import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { stringOption, withDatabase, type Command } from './command-support.js';
import { keysCreate, keysList, keysRevoke } from './key-commands.js';
import { projectSetModel, projectSetPersona, projectSetPersonalization } from './project-commands.js';
import { createLogger } from '../logging/logger.js';
import { bootstrap } from '../provisioning/bootstrap.js';
import { startServer } from '../server.js';
import { validateModelSetting } from '../projects/model-setting.js';
import { webhookCommands } from '../webhooks/webhook-commands.js';

export { stringOption, withDatabase, type Command, type CommandInput } from './command-support.js';

const serve: Command = {
  summary: 'start the API server (same as npm start)',
  async run({ config }) {
    const logger = createLogger(config.logLevel);
    const server = await startServer(config, logger);
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, 'shutting down');
        server.close().then(resolve, (error) => {
          logger.error({ err: error }, 'shutdown failed');
          resolve();
        });
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
    return 0;
  },
};

const migrate: Command = {
  summary: 'apply pending database migrations',
  async run({ config }) {
    const database = openDatabase(config.databaseUrl, { poolSize: 1 });
    try {
      const applied = await migrateToLatest(database);
      process.stdout.write(applied.length === 0 ? 'database is up to date\n' : `applied ${applied.join(', ')}\n`);
    } finally {
      await database.close();
    }
    return 0;
  },
};

const bootstrapCommand: Command = {
  summary: 'provision a workspace, project, keys and a dashboard user (--json)',
  options: {
    json: { type: 'boolean' },
    'workspace-id': { type: 'string' },
    model: { type: 'string' },
    'model-base-url': { type: 'string' },
    'model-api-key': { type: 'string' },
  },
  async run({ config, values }) {
    const result = await withDatabase(config, (database) =>
      bootstrap(
        database.db,
        {
          workspaceId: stringOption(values, 'workspace-id'),
          model: stringOption(values, 'model'),
          modelBaseUrl: stringOption(values, 'model-base-url'),
          modelApiKey: stringOption(values, 'model-api-key'),
          userTokenTtlSeconds: config.userTokenTtlSeconds,
        },
        validateModelSetting,
      ),
    );
    if (values['json']) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      process.stdout.write(
        [
          `workspace   ${result.workspaceId}`,
          `project     ${result.projectId}`,
          `sdk key     ${result.sdkKey}`,
          `operator    ${result.operatorKey}`,
          `dashboard   ${result.dashboard.email} / ${result.dashboard.password}`,
          `user token  ${result.userToken}`,
          'Keys are shown only now: store them safely.',
        ].join('\n') + '\n',
      );
    }
    return 0;
  },
};

/** Every command, by name; two-word names ("keys create") are matched first. */
export const commands: Record<string, Command> = {
  serve,
  migrate,
  bootstrap: bootstrapCommand,
  'keys create': keysCreate,
  'keys list': keysList,
  'keys revoke': keysRevoke,
  'project set-model': projectSetModel,
  'project set-persona': projectSetPersona,
  'project set-personalization': projectSetPersonalization,
  ...webhookCommands,
};
