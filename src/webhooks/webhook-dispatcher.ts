import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { pruneEscalationEvents } from '../escalations/escalation-event-log.js';
import { isoAfter, nowIso } from '../shared/time.js';
import { claimDelivery, findDelivery, findWebhookEndpointById, listDueDeliveries, pruneFinishedDeliveries, updateDelivery } from './webhook-repository.js';
import { webhookHeaders } from './webhook-signature.js';
import { assertWebhookUrl } from './webhook-url.js';

const batchSize = 20;
const maxRetryDelayMs = 3_600_000;
const pruneEveryMs = 60_000;
const finishedDeliveryRetentionMs = 7 * 24 * 3_600_000;

/** Exponential backoff with "equal jitter": half the delay fixed, half random, so retries spread out. */
export function retryDelayMs(attempts: number, baseMs: number, random = Math.random()): number {
  const exponential = Math.min(maxRetryDelayMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random);
}

/**
 * The webhook worker: polls the outbox for due deliveries, claims each with a
 * lease (safe with several instances on one database), POSTs it signed, and
 * records the outcome. It also prunes the event log past its retention.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wakeRequested = false;
  private lastPrune = 0;

  constructor(private readonly db: Db, private readonly config: Config, private readonly log: FastifyBaseLogger) {}

  start(): void {
    if (!this.config.webhookDeliveryEnabled || !this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** New events were committed: look now rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops polling and waits for attempts in flight, so a closing app leaves no half-recorded delivery. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
        const again = this.wakeRequested;
        this.wakeRequested = false;
        this.schedule(again ? 0 : this.config.webhookPollIntervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.prune();
      for (;;) {
        const due = await listDueDeliveries(this.db, nowIso(), batchSize);
        const claimed: string[] = [];
        const leaseUntil = isoAfter(this.config.webhookTimeoutMs + 30_000);
        for (const delivery of due) {
          if (await claimDelivery(this.db, delivery, leaseUntil)) claimed.push(delivery.id);
        }
        await Promise.all(claimed.map((id) => this.attempt(id)));
        if (due.length < batchSize || this.stopped) break;
      }
    } catch (error) {
      this.log.error({ err: error }, 'webhook worker tick failed');
    }
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < pruneEveryMs) return;
    this.lastPrune = Date.now();
    await pruneEscalationEvents(this.db, isoAfter(-this.config.escalationEventRetentionHours * 3_600_000));
    await pruneFinishedDeliveries(this.db, isoAfter(-finishedDeliveryRetentionMs));
  }

  private async attempt(deliveryId: string): Promise<void> {
    const delivery = await findDelivery(this.db, deliveryId);
    if (!delivery) return;
    const endpoint = await findWebhookEndpointById(this.db, delivery.endpoint_id);
    if (!endpoint) return;
    const attempts = delivery.attempts + 1;
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const url = await assertWebhookUrl(endpoint.url, this.config.webhooksAllowPrivateAddresses);
      const secrets = [endpoint.secret];
      if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > nowIso()) secrets.push(endpoint.previous_secret);
      const response = await fetch(url, {
        method: 'POST',
        headers: webhookHeaders(secrets, delivery.event_id, Math.floor(Date.now() / 1000), delivery.payload),
        body: delivery.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.webhookTimeoutMs),
      });
      statusCode = response.status;
      await response.body?.cancel().catch(() => undefined);
      if (response.status < 200 || response.status >= 300) error = `endpoint answered ${response.status}`;
    } catch (cause) {
      error = cause instanceof Error ? `${cause.name}: ${cause.message}`.slice(0, 500) : 'delivery failed';
    }
    const now = nowIso();
    if (error === null) {
      await updateDelivery(this.db, delivery.id, { status: 'delivered', attempts, last_status_code: statusCode, last_error: null, finished_at: now, next_attempt_at: now });
      return;
    }
    const failed = attempts >= this.config.webhookMaxAttempts;
    await updateDelivery(this.db, delivery.id, {
      status: failed ? 'failed' : 'pending',
      attempts,
      last_status_code: statusCode,
      last_error: error,
      finished_at: failed ? now : null,
      next_attempt_at: failed ? now : isoAfter(retryDelayMs(attempts, this.config.webhookRetryBaseMs)),
    });
    this.log.warn({ deliveryId: delivery.id, endpointId: endpoint.id, attempts, failed }, 'webhook delivery attempt failed');
  }
}
