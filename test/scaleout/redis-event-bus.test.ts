import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { inject } from 'vitest';
import { RedisEventBus } from '../../src/events/redis-event-bus.js';
import { eventually } from '../support/eventually.js';

const redisUrl = inject('redisUrl');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


describe.skipIf(!redisUrl)('the Redis event bus', () => {
  const prefix = `parley-bus-test-${randomBytes(4).toString('hex')}:`;
  let redis: Redis;
  const buses: RedisEventBus[] = [];
  const connect = async (busPrefix = prefix) => {
    const bus = await RedisEventBus.connect(redisUrl, { prefix: busPrefix, logger: pino({ level: 'silent' }) });
    buses.push(bus);
    return bus;
  };
  const subscribers = async (channel: string) => {
    const reply = (await redis.call('PUBSUB', 'NUMSUB', prefix + channel)) as [string, number];
    return Number(reply[1]);
  };

  beforeAll(() => {
    redis = new Redis(redisUrl);
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    redis.disconnect();
  });

  it('fans one Redis subscription out to several local handlers, and drops it with the last one', async () => {
    const [receiver, sender] = [await connect(), await connect()];
    const first: unknown[] = [];
    const second: unknown[] = [];
    const unsubscribeFirst = await receiver.subscribe('fan-out', (message) => first.push(message));
    const unsubscribeSecond = await receiver.subscribe('fan-out', (message) => second.push(message));
    expect(await subscribers('fan-out')).toBe(1);
    await sender.publish('fan-out', { n: 1 });
    await eventually(() => first.length === 1 && second.length === 1);
    expect(first[0]).toEqual({ n: 1 });
    // One parsed copy is shared, frozen, so no handler can change what another sees.
    expect(Object.isFrozen(first[0])).toBe(true);
    expect(() => {
      (first[0] as { n: number }).n = 9;
    }).toThrow(TypeError);
    expect(second[0]).toEqual({ n: 1 });
    await unsubscribeFirst();
    await sender.publish('fan-out', { n: 2 });
    await eventually(() => second.length === 2);
    expect(first).toHaveLength(1);
    await unsubscribeSecond();
    expect(await subscribers('fan-out')).toBe(0);
    expect(receiver.channelCount).toBe(0);
  });

  it('keeps deployments apart by prefix', async () => {
    const ours = await connect();
    const theirs = await connect(`${prefix}other:`);
    const received: unknown[] = [];
    await theirs.subscribe('shared-name', (message) => received.push(message));
    await ours.publish('shared-name', { leaked: true });
    await sleep(150);
    expect(received).toEqual([]);
  });

  it('resubscribes after losing its connection, then runs the onReconnect handlers', async () => {
    const [receiver, sender] = [await connect(), await connect()];
    const received: unknown[] = [];
    let reconnects = 0;
    await receiver.subscribe('after-reconnect', (message) => received.push(message));
    receiver.onReconnect(() => reconnects++);
    const list = String(await redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
    for (const line of list.split('\n')) {
      const id = /\bid=(\d+)/.exec(line)?.[1];
      if (id && line.includes(`name=${prefix}subscriber`)) await redis.call('CLIENT', 'KILL', 'ID', id);
    }
    await eventually(() => reconnects >= 1, 5000);
    // By the time the handler runs the channel is subscribed again: nothing published now is missed.
    await sender.publish('after-reconnect', { n: 1 });
    await eventually(() => received.length === 1);
  });

  it('does not fail or hang a publish while Redis is unreachable', async () => {
    const bus = await RedisEventBus.connect(redisUrl, { prefix, logger: pino({ level: 'silent' }), publishTimeoutMs: 200 });
    buses.push(bus);
    bus.commands.disconnect();
    const started = Date.now();
    await bus.publish('nowhere', { n: 1 });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
