import type { Config } from '../config/config.js';
import { createEventBus } from '../events/create-event-bus.js';
import type { EventBus } from '../events/event-bus.js';
import { createApiKey, listKeys, revokeApiKey, type KeySummary } from '../keys/key-service.js';
import { findWorkspace } from '../workspaces/workspace-repository.js';
import type { Db } from '../db/database.js';
import { CliError } from './cli-error.js';
import { stringOption, withDatabase, type Command } from './command-support.js';

/** The bus of this process: with REDIS_URL, a running server hears revokes and saves at once. */
export async function withBus<T>(config: Config, work: (bus: EventBus) => Promise<T>): Promise<T> {
  const bus = await createEventBus(config.redisUrl);
  try {
    return await work(bus);
  } finally {
    await bus.close();
  }
}

export function requiredOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new CliError(`--${name} is required`);
  return value.trim();
}

async function requireWorkspace(db: Db, workspaceId: string): Promise<void> {
  if (!(await findWorkspace(db, workspaceId))) throw new CliError(`workspace ${workspaceId} not found`);
}

function keyLine(key: KeySummary): string {
  return [key.id, key.scope.padEnd(8), key.prefix, key.name, key.projectId ?? '-', `created ${key.createdAt}`, `last used ${key.lastUsedAt ?? 'never'}`, `expires ${key.expiresAt ?? 'never'}`, key.revokedAt ? `REVOKED ${key.revokedAt}` : 'active'].join('  ');
}

export const keysCreate: Command = {
  summary: 'create an API key (shown once): --workspace-id --name --scope sdk|operator [--project-id] [--expires-at] [--json]',
  options: { 'workspace-id': { type: 'string' }, name: { type: 'string' }, scope: { type: 'string' }, 'project-id': { type: 'string' }, 'expires-at': { type: 'string' }, json: { type: 'boolean' } },
  async run({ config, values }) {
    const workspaceId = requiredOption(values, 'workspace-id');
    const name = requiredOption(values, 'name');
    const scope = requiredOption(values, 'scope');
    if (scope !== 'sdk' && scope !== 'operator') throw new CliError(`--scope must be sdk or operator, got "${scope}"`);
    const created = await withDatabase(config, async (database) => {
      await requireWorkspace(database.db, workspaceId);
      return createApiKey(database.db, { workspaceId, name, scope, projectId: stringOption(values, 'project-id'), expiresAt: stringOption(values, 'expires-at') });
    });
    process.stdout.write(values['json'] ? `${JSON.stringify(created)}\n` : `${created.key}\n${keyLine(created)}\nThe key is shown only now: store it safely.\n`);
    return 0;
  },
};

export const keysList: Command = {
  summary: 'list the API keys of a workspace (never the keys): --workspace-id [--json]',
  options: { 'workspace-id': { type: 'string' }, json: { type: 'boolean' } },
  async run({ config, values }) {
    const workspaceId = requiredOption(values, 'workspace-id');
    const keys = await withDatabase(config, async (database) => {
      await requireWorkspace(database.db, workspaceId);
      return listKeys(database.db, workspaceId);
    });
    process.stdout.write(values['json'] ? `${JSON.stringify(keys)}\n` : keys.map((key) => `${keyLine(key)}\n`).join(''));
    return 0;
  },
};

export const keysRevoke: Command = {
  summary: 'revoke an API key: --workspace-id ID KEY_ID',
  options: { 'workspace-id': { type: 'string' }, json: { type: 'boolean' } },
  positionals: true,
  async run({ config, values, positionals }) {
    const workspaceId = requiredOption(values, 'workspace-id');
    if (positionals.length !== 1 || !positionals[0]) throw new CliError('give exactly one KEY_ID to revoke');
    const keyId = positionals[0];
    const revoked = await withDatabase(config, (database) => withBus(config, (bus) => revokeApiKey(database.db, bus, workspaceId, keyId)));
    process.stdout.write(values['json'] ? `${JSON.stringify(revoked)}\n` : `revoked ${revoked.id} (${revoked.name}) at ${revoked.revokedAt}\n`);
    return 0;
  },
};
