import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import pino from 'pino';
import { inject } from 'vitest';
import { RedisEventBus } from '../../src/events/redis-event-bus.js';
import { spawnServer, type ServerProcess } from './server-process.js';

/** Why the multi-instance suites are skipped, or null when they can run. */
export function clusterSkipReason(): string | null {
  if (!inject('postgresUrl')) return 'PARLEY_TEST_DATABASE_URL is not set';
  if (!inject('redisUrl')) return 'PARLEY_TEST_REDIS_URL is not set';
  return null;
}

/**
 * Several real `parley serve` processes on one PostgreSQL schema of their own
 * (so other suites' servers cannot touch its job leases) and one Redis, under
 * a Redis prefix of their own (so concurrent runs on the machine do not mix).
 */
export interface Cluster {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  /** A plain Redis connection for the test's own checks. */
  redis: Redis;
  start(count: number, env?: Record<string, string>): Promise<ServerProcess[]>;
  /** A bus on the same Redis and prefix, for publishing as an instance would. */
  bus(): Promise<RedisEventBus>;
  /** Drops this instance's Redis subscriber connections (as a Redis restart would). */
  killSubscriberConnections(): Promise<number>;
  close(): Promise<void>;
}

export async function createCluster(): Promise<Cluster> {
  const base = new URL(inject('postgresUrl'));
  const runSchema = /search_path=(\S+)/.exec(base.searchParams.get('options') ?? '')?.[1] ?? 'parley_test';
  const schema = `${runSchema}_${randomBytes(3).toString('hex')}`;
  base.searchParams.delete('options');
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const databaseUrl = new URL(base.toString());
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  const redisUrl = inject('redisUrl');
  const prefix = `parley-test-${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(redisUrl);
  const processes: ServerProcess[] = [];
  const buses: RedisEventBus[] = [];
  return {
    databaseUrl: databaseUrl.toString(),
    redisUrl,
    prefix,
    redis,
    async start(count, env = {}) {
      const started = await Promise.all(
        Array.from({ length: count }, () => spawnServer({ databaseUrl: databaseUrl.toString(), redisUrl, env: { PARLEY_REDIS_PREFIX: prefix, ...env } })),
      );
      processes.push(...started);
      return started;
    },
    async bus() {
      const bus = await RedisEventBus.connect(redisUrl, { prefix, logger: pino({ level: 'silent' }) });
      buses.push(bus);
      return bus;
    },
    async killSubscriberConnections() {
      const list = String(await redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
      let killed = 0;
      for (const line of list.split('\n')) {
        const id = /\bid=(\d+)/.exec(line)?.[1];
        const name = /\bname=(\S*)/.exec(line)?.[1];
        if (id && name === `${prefix}subscriber`) {
          await redis.call('CLIENT', 'KILL', 'ID', id);
          killed++;
        }
      }
      return killed;
    },
    async close() {
      await Promise.all(processes.map((server) => server.stop('SIGKILL')));
      for (const bus of buses) await bus.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      const cleanup = new pg.Client({ connectionString: base.toString() });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists "${schema}" cascade`);
      await cleanup.end();
    },
  };
}
