/**
 * The one module that reads `process.env`. Everything else receives the frozen
 * `Config` built here, so a setting is parsed (and rejected) exactly once, at boot.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly redisUrl: string | null;
  readonly logLevel: LogLevel;
  /** Largest accepted request body, in bytes. */
  readonly bodyLimitBytes: number;
  /** Lifetime of a dashboard user token, in seconds. */
  readonly userTokenTtlSeconds: number;
  /** Time allowed for one upstream model call, in milliseconds. */
  readonly modelTimeoutMs: number;
  /** Interval of keep-alive comments on SSE streams, in milliseconds. */
  readonly ssePingIntervalMs: number;
  /** How often popular prompts are recomputed, in milliseconds. */
  readonly popularPromptsIntervalMs: number;
  /** Allow webhook endpoints on private and loopback addresses (off by default: SSRF). */
  readonly webhooksAllowPrivateAddresses: boolean;
  /** Run the webhook delivery worker in this process. */
  readonly webhookDeliveryEnabled: boolean;
  /** How often the worker looks for due deliveries, in milliseconds. */
  readonly webhookPollIntervalMs: number;
  /** Attempts per delivery before it is marked failed. */
  readonly webhookMaxAttempts: number;
  /** First retry delay; doubles per attempt (with jitter), capped at one hour. */
  readonly webhookRetryBaseMs: number;
  /** Time allowed for one delivery attempt, in milliseconds. */
  readonly webhookTimeoutMs: number;
  /** How long escalation events stay replayable (Last-Event-ID), in hours. */
  readonly escalationEventRetentionHours: number;
  /** Credentials used for projects whose model has no key of its own. */
  readonly openaiApiKey: string | null;
  readonly anthropicApiKey: string | null;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

interface Setting<T> {
  readonly fallback: T;
  readonly parse: (raw: string, name: string) => T;
}

const integer = (min: number, max: number) => (raw: string, name: string): number => {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
};

const text = (raw: string, name: string): string => {
  if (raw.trim() === '') throw new ConfigError(`${name} must not be empty`);
  return raw.trim();
};

const optionalText = (raw: string): string | null => (raw.trim() === '' ? null : raw.trim());

const boolean = (raw: string, name: string): boolean => {
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
};

const logLevels: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const databaseUrl = (raw: string, name: string): string => {
  const value = raw.trim();
  if (value.startsWith('sqlite:') && value.length > 'sqlite:'.length) return value;
  if (/^postgres(ql)?:\/\/.+/.test(value)) return value;
  throw new ConfigError(`${name} must be sqlite:<path> or postgres://…, got "${raw}"`);
};

const redisUrl = (raw: string, name: string): string | null => {
  const value = raw.trim();
  if (value === '') return null;
  if (/^rediss?:\/\/.+/.test(value)) return value;
  throw new ConfigError(`${name} must be redis://… or rediss://…, got "${raw}"`);
};

const settings = {
  PORT: { fallback: 8787, parse: integer(0, 65535) },
  HOST: { fallback: '127.0.0.1', parse: text },
  DATABASE_URL: { fallback: 'sqlite:./data/parley.db', parse: databaseUrl },
  REDIS_URL: { fallback: null, parse: redisUrl },
  LOG_LEVEL: {
    fallback: 'info',
    parse: (raw: string, name: string): LogLevel => {
      const value = raw.trim() as LogLevel;
      if (!logLevels.includes(value)) throw new ConfigError(`${name} must be one of ${logLevels.join(', ')}, got "${raw}"`);
      return value;
    },
  },
  PARLEY_BODY_LIMIT_BYTES: { fallback: 1_048_576, parse: integer(1024, 64 * 1_048_576) },
  PARLEY_USER_TOKEN_TTL_SECONDS: { fallback: 7 * 24 * 3600, parse: integer(60, 365 * 24 * 3600) },
  PARLEY_MODEL_TIMEOUT_MS: { fallback: 60_000, parse: integer(100, 3_600_000) },
  PARLEY_SSE_PING_INTERVAL_MS: { fallback: 15_000, parse: integer(50, 3_600_000) },
  PARLEY_POPULAR_PROMPTS_INTERVAL_MS: { fallback: 60_000, parse: integer(100, 86_400_000) },
  PARLEY_WEBHOOKS_ALLOW_PRIVATE: { fallback: false, parse: boolean },
  PARLEY_WEBHOOK_DELIVERY: { fallback: true, parse: boolean },
  PARLEY_WEBHOOK_POLL_INTERVAL_MS: { fallback: 1000, parse: integer(10, 3_600_000) },
  PARLEY_WEBHOOK_MAX_ATTEMPTS: { fallback: 8, parse: integer(1, 50) },
  PARLEY_WEBHOOK_RETRY_BASE_MS: { fallback: 10_000, parse: integer(1, 3_600_000) },
  PARLEY_WEBHOOK_TIMEOUT_MS: { fallback: 10_000, parse: integer(100, 300_000) },
  PARLEY_EVENT_RETENTION_HOURS: { fallback: 24, parse: integer(1, 24 * 90) },
  OPENAI_API_KEY: { fallback: null, parse: optionalText },
  ANTHROPIC_API_KEY: { fallback: null, parse: optionalText },
} satisfies Record<string, Setting<unknown>>;

type SettingName = keyof typeof settings;
type SettingValue<N extends SettingName> = ReturnType<(typeof settings)[N]['parse']>;

/** Variables the tests read; accepted here so a `PARLEY_` typo check does not reject them. */
const knownTestVariables = new Set(['PARLEY_TEST_DATABASE_URL', 'PARLEY_TEST_REDIS_URL']);

function read<N extends SettingName>(env: Env, name: N): SettingValue<N> {
  const raw = env[name];
  const setting = settings[name] as Setting<SettingValue<N>>;
  if (raw === undefined) return setting.fallback;
  return setting.parse(raw, name);
}

/**
 * Parses the environment into a frozen Config. Throws ConfigError with one line
 * naming the setting on any malformed value, or on an unknown `PARLEY_*` variable
 * (almost always a typo that would otherwise be silently ignored).
 */
export function loadConfig(env: Env = process.env): Config {
  for (const name of Object.keys(env)) {
    if (name.startsWith('PARLEY_') && !(name in settings) && !knownTestVariables.has(name)) {
      throw new ConfigError(`unknown setting ${name} (known: ${Object.keys(settings).filter((n) => n.startsWith('PARLEY_')).join(', ')})`);
    }
  }
  return Object.freeze({
    port: read(env, 'PORT'),
    host: read(env, 'HOST'),
    databaseUrl: read(env, 'DATABASE_URL'),
    redisUrl: read(env, 'REDIS_URL'),
    logLevel: read(env, 'LOG_LEVEL'),
    bodyLimitBytes: read(env, 'PARLEY_BODY_LIMIT_BYTES'),
    userTokenTtlSeconds: read(env, 'PARLEY_USER_TOKEN_TTL_SECONDS'),
    modelTimeoutMs: read(env, 'PARLEY_MODEL_TIMEOUT_MS'),
    ssePingIntervalMs: read(env, 'PARLEY_SSE_PING_INTERVAL_MS'),
    popularPromptsIntervalMs: read(env, 'PARLEY_POPULAR_PROMPTS_INTERVAL_MS'),
    webhooksAllowPrivateAddresses: read(env, 'PARLEY_WEBHOOKS_ALLOW_PRIVATE'),
    webhookDeliveryEnabled: read(env, 'PARLEY_WEBHOOK_DELIVERY'),
    webhookPollIntervalMs: read(env, 'PARLEY_WEBHOOK_POLL_INTERVAL_MS'),
    webhookMaxAttempts: read(env, 'PARLEY_WEBHOOK_MAX_ATTEMPTS'),
    webhookRetryBaseMs: read(env, 'PARLEY_WEBHOOK_RETRY_BASE_MS'),
    webhookTimeoutMs: read(env, 'PARLEY_WEBHOOK_TIMEOUT_MS'),
    escalationEventRetentionHours: read(env, 'PARLEY_EVENT_RETENTION_HOURS'),
    openaiApiKey: read(env, 'OPENAI_API_KEY'),
    anthropicApiKey: read(env, 'ANTHROPIC_API_KEY'),
  });
}

/** A Config for tests and tools: defaults, overridden field by field. */
export function configWith(overrides: Partial<Config>): Config {
  return Object.freeze({ ...loadConfig({}), ...overrides });
}
