import { CliError } from '../cli/cli-error.js';
import { stringOption, withDatabase, type Command, type CommandInput } from '../cli/command-support.js';
import { AppError } from '../http/errors.js';
import type { DeliveryStatus } from './webhook-tables.js';
import { createWebhookEndpoint, listDeliveryViews, listWebhookEndpointViews, removeWebhookEndpoint, retryDelivery } from './webhook-service.js';

function required(values: CommandInput['values'], name: string): string {
  const value = stringOption(values, name);
  if (value === undefined || value.trim() === '') throw new CliError(`--${name} is required`);
  return value.trim();
}

function print(values: CommandInput['values'], json: unknown, lines: string[]): void {
  process.stdout.write(values['json'] ? `${JSON.stringify(json)}\n` : `${lines.join('\n')}\n`);
}

/** Service errors (bad URL, unknown id) become one CLI line, not a stack. */
async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw new CliError(error.message.replace(/^body\./, '--'));
    throw error;
  }
}

const common = { json: { type: 'boolean' }, 'workspace-id': { type: 'string' } } as const;

const add: Command = {
  summary: 'add a webhook endpoint: --workspace-id ID --url URL [--events a,b] [--description TEXT] [--json]',
  options: { ...common, url: { type: 'string' }, events: { type: 'string' }, description: { type: 'string' } },
  async run({ config, values }) {
    const workspaceId = required(values, 'workspace-id');
    const url = required(values, 'url');
    const events = stringOption(values, 'events')?.split(',').map((e) => e.trim()).filter(Boolean);
    const created = await run(() => withDatabase(config, (database) =>
      createWebhookEndpoint(database.db, config.webhooksAllowPrivateAddresses, { workspaceId, url, eventTypes: events, description: stringOption(values, 'description') })));
    print(values, created, [
      `endpoint  ${created.endpoint.id}`,
      `url       ${created.endpoint.url}`,
      `events    ${created.endpoint.eventTypes.join(', ')}`,
      `secret    ${created.secret}`,
      'The secret is shown only now: store it where the receiver can verify signatures with it.',
    ]);
    return 0;
  },
};

const list: Command = {
  summary: 'list webhook endpoints: --workspace-id ID [--json]',
  options: common,
  async run({ config, values }) {
    const workspaceId = required(values, 'workspace-id');
    const endpoints = await withDatabase(config, (database) => listWebhookEndpointViews(database.db, workspaceId));
    print(values, { endpoints }, endpoints.length === 0 ? ['no webhook endpoints'] : endpoints.map((e) => `${e.id}  ${e.url}  [${e.eventTypes.join(', ')}]`));
    return 0;
  },
};

const remove: Command = {
  summary: 'remove a webhook endpoint: --workspace-id ID --id ENDPOINT_ID',
  options: { ...common, id: { type: 'string' } },
  async run({ config, values }) {
    const workspaceId = required(values, 'workspace-id');
    const id = required(values, 'id');
    await run(() => withDatabase(config, (database) => removeWebhookEndpoint(database.db, workspaceId, id)));
    print(values, { removed: id }, [`removed ${id}`]);
    return 0;
  },
};

const deliveries: Command = {
  summary: 'delivery log: --workspace-id ID [--endpoint ID] [--status pending|delivered|failed] [--json]',
  options: { ...common, endpoint: { type: 'string' }, status: { type: 'string' } },
  async run({ config, values }) {
    const workspaceId = required(values, 'workspace-id');
    const status = stringOption(values, 'status');
    if (status !== undefined && !['pending', 'delivered', 'failed'].includes(status)) throw new CliError('--status must be pending, delivered or failed');
    const rows = await run(() => withDatabase(config, (database) =>
      listDeliveryViews(database.db, workspaceId, { endpointId: stringOption(values, 'endpoint'), status: status as DeliveryStatus | undefined, limit: 100 })));
    print(values, { deliveries: rows }, rows.length === 0 ? ['no deliveries'] : rows.map((d) =>
      `${d.id}  ${d.eventType.padEnd(20)}  ${d.status.padEnd(9)}  attempts=${d.attempts}${d.lastError ? `  last error: ${d.lastError}` : ''}`));
    return 0;
  },
};

const retry: Command = {
  summary: 'retry a failed delivery now (fresh attempt budget): --workspace-id ID --id DELIVERY_ID [--json]',
  options: { ...common, id: { type: 'string' } },
  async run({ config, values }) {
    const workspaceId = required(values, 'workspace-id');
    const id = required(values, 'id');
    // Sent by the worker of a running server (within PARLEY_WEBHOOK_POLL_INTERVAL_MS), not by this command.
    const delivery = await run(() => withDatabase(config, (database) => retryDelivery(database.db, workspaceId, id)));
    print(values, { delivery }, [`re-queued ${delivery.id}: the delivery worker sends it at its next poll`]);
    return 0;
  },
};

export const webhookCommands: Record<string, Command> = {
  'webhooks add': add,
  'webhooks list': list,
  'webhooks remove': remove,
  'webhooks deliveries': deliveries,
  'webhooks retry': retry,
};
