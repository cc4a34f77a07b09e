import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { configWith } from '../../src/config/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createLogger } from '../../src/logging/logger.js';
import { validateModelSetting } from '../../src/projects/model-setting.js';
import { bootstrap, type BootstrapResult } from '../../src/provisioning/bootstrap.js';
import { startServer } from '../../src/server.js';
import { startShopServer } from './shop-server.js';

/*
 * `npm run demo`: Parley (offline demo model unless told otherwise) and the shop, together.
 * It provisions a workspace, a project and its keys (as `parley bootstrap` does), then
 * configures the project through the admin API like a dashboard user would: the
 * applyCoupon action type, the panel's personalization and suggested prompts.
 */

export interface DemoOptions {
  parleyPort?: number;
  shopPort?: number;
  /** Defaults to a fresh SQLite file in a temporary folder. */
  databaseUrl?: string;
  /** PROVIDER:MODEL; defaults to the offline demo model. */
  model?: string;
  modelBaseUrl?: string;
  modelApiKey?: string;
  logLevel?: 'info' | 'warn' | 'silent';
}

export interface RunningDemo {
  parleyUrl: string;
  shopUrl: string;
  tenant: BootstrapResult;
  close(): Promise<void>;
}

export const couponPayloadSchema = {
  type: 'object',
  properties: { code: { type: 'string', minLength: 3, maxLength: 32, description: 'the coupon code, e.g. WELCOME10' } },
  required: ['code'],
  additionalProperties: false,
};

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(mkdtempSync(join(tmpdir(), 'parley-demo-')), 'parley.db')}`;
  const config = configWith({ port: options.parleyPort ?? 8787, host: '127.0.0.1', databaseUrl, logLevel: options.logLevel ?? 'warn' });
  const parley = await startServer(config, createLogger(config.logLevel));
  try {
    const database = openDatabase(databaseUrl, { poolSize: 1 });
    let tenant: BootstrapResult;
    try {
      await migrateToLatest(database);
      tenant = await bootstrap(database.db, { model: options.model, modelBaseUrl: options.modelBaseUrl, modelApiKey: options.modelApiKey, userTokenTtlSeconds: config.userTokenTtlSeconds }, validateModelSetting);
    } finally {
      await database.close();
    }
    await configureProject(parley.url, tenant);
    const shop = await startShopServer({ parleyUrl: parley.url, sdkKey: tenant.sdkKey, port: options.shopPort ?? 5173 });
    return {
      parleyUrl: parley.url,
      shopUrl: shop.url,
      tenant,
      close: async () => {
        await shop.close();
        await parley.close();
      },
    };
  } catch (error) {
    await parley.close();
    throw error;
  }
}

/** What a project owner would set in the dashboard, done through the admin API. */
async function configureProject(parleyUrl: string, tenant: BootstrapResult): Promise<void> {
  const admin = async (method: string, path: string, body: unknown): Promise<void> => {
    const response = await fetch(`${parleyUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${tenant.userToken}`, 'x-workspace-id': tenant.workspaceId, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`demo setup: ${method} ${path} answered ${response.status}: ${await response.text()}`);
  };
  await admin('PUT', `/admin/projects/${tenant.projectId}/action-types/applyCoupon`, {
    description: 'Apply a coupon code to the customer’s cart. Use it when the user gives a coupon code or asks for a discount.',
    payloadSchema: couponPayloadSchema,
  });
  await admin('PATCH', `/admin/projects/${tenant.projectId}`, {
    escalateToolEnabled: true,
    personalization: {
      assistantName: 'Shopbot',
      chatTitle: 'Help with your orders',
      welcomeMessage: 'Hi! I can take you to any screen, apply a coupon, or get a person from our team.',
      theme: { colors: { primary: '#0f766e', background: '#ffffff', text: '#111827' }, mode: 'light' },
      triggerButtonColor: '#0f766e',
    },
    devPrompts: {
      global: ['Take me to my orders', 'I want to talk to a human'],
      screens: {
        home: ['Take me to my orders', 'Open settings'],
        orders: ['Show order 1002', 'Apply coupon WELCOME10'],
        settings: ['Take me to help'],
        help: ['I want to talk to a human'],
      },
    },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = process.env;
  const demo = await startDemo({
    parleyPort: Number(env['PARLEY_PORT'] ?? 8787),
    shopPort: Number(env['SHOP_PORT'] ?? 5173),
    model: env['DEMO_MODEL'],
    modelBaseUrl: env['DEMO_MODEL_BASE_URL'],
    modelApiKey: env['DEMO_MODEL_API_KEY'],
    logLevel: 'warn',
  });
  // The dashboard is served at the server's root when it is part of this build.
  const root = await fetch(`${demo.parleyUrl}/`).catch(() => null);
  const dashboard = root !== null && root.ok && (root.headers.get('content-type') ?? '').includes('text/html');
  process.stdout.write(
    [
      '',
      `  Shop (the demo app):  ${demo.shopUrl}`,
      dashboard ? `  Parley dashboard:     ${demo.parleyUrl}/  (sign in: ${demo.tenant.dashboard.email} / ${demo.tenant.dashboard.password})` : `  Parley API:           ${demo.parleyUrl}/api/v1`,
      `  operator key:         ${demo.tenant.operatorKey}`,
      '',
      `  Try "take me to my orders", then "I want to talk to a human" and answer ${dashboard ? 'from the dashboard' : 'as the operator'}`,
      `  or: curl -X POST ${demo.parleyUrl}/api/v1/escalations/<id>/message -H "authorization: Bearer <operator key>" -H "content-type: application/json" -d '{"content":"Hi!"}'`,
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    void demo.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
