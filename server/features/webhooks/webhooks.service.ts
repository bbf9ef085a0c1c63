import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { AppError } from '#server/lib/app-error.ts';
import { backendSignature } from '#server/lib/backend-signatures.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { WebhookSender } from './webhook-sender.ts';
import { resolvesPublicly, webhookUrlProblem } from './webhook-url.ts';
import type { DeliveryRow, WebhooksRepository } from './webhooks.repository.ts';

/** The first retry waits this long; each next one twice as long as the one before. */
export const FIRST_RETRY_SECONDS = 30;
/** No wait between attempts is longer than this. */
export const LONGEST_RETRY_SECONDS = 6 * 60 * 60;
/** A delivery not answered with 2xx within this time after its event is given up. */
export const GIVE_UP_AFTER_SECONDS = 24 * 60 * 60;
/** How long a worker holds the deliveries it claimed (longer than a send's time limit). */
const LEASE_SECONDS = 60;
const BATCH = 10;
/** Deliveries the Studio's log shows per game; pruning never takes these. */
const LOG_LENGTH = 50;
/** How long finished deliveries (delivered or given up) are kept beyond each game's log (decision 100). */
export const DELIVERY_RETENTION_DAYS = 30;
/** How often the worker prunes finished deliveries. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export type WebhookEventType = 'order.paid' | 'order.refunded' | 'items.consumed' | 'test';

/** A row of the delivery log, as the Studio shows it. */
export interface WebhookDelivery {
  id: number;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastResponse: string | null;
  lastError: string | null;
}

export interface WebhookSettings {
  url: string | null;
  /** Whether a secret exists: it is shown only when it is made. */
  hasSecret: boolean;
  deliveries: WebhookDelivery[];
}

/** An order as the webhook tells it (its row's fields). */
export interface OrderFacts {
  public_id: string;
  app_id: number;
  user_id: number;
  sku: string;
  amount_minor: number;
  currency: string;
  status: string;
  paid_at: string | null;
}

/** `Playport-Signature: t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{body}"}` (docs/sdk/webhooks.md). */
export function webhookSignatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${backendSignature(secret, String(timestamp), body)}`;
}

/** The delay before attempt `attempts + 1`, after `attempts` failed ones: 30 s, 1 min, 2 min, … up to 6 h. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_SECONDS);
}

/**
 * Webhooks to a game's own backend (decision 100). Events are added to an outbox in the
 * transaction of the change they announce, so a crash loses none; a worker in each server
 * process claims due deliveries with a lease (never two instances the same row), posts them
 * signed with the game's webhook secret, and retries with exponential backoff for a day.
 */
export class WebhooksService {
  readonly #repository: WebhooksRepository;
  readonly #sender: WebhookSender;
  readonly #clock: Clock;
  readonly #appSecret: string;
  readonly #allowPrivate: boolean;
  readonly #worker = `w_${randomBytes(9).toString('base64url')}`;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;
  #prunedAt = 0;

  constructor(deps: { repository: WebhooksRepository; sender: WebhookSender; clock: Clock; appSecret: string; allowPrivateTargets: boolean }) {
    this.#repository = deps.repository;
    this.#sender = deps.sender;
    this.#clock = deps.clock;
    this.#appSecret = deps.appSecret;
    this.#allowPrivate = deps.allowPrivateTargets;
  }

  /** A game's webhook URL and its latest deliveries. */
  async settings(appId: number): Promise<WebhookSettings> {
    const [webhook, rows] = await Promise.all([this.#repository.webhook(appId), this.#repository.deliveries(appId, LOG_LENGTH)]);
    return { url: webhook?.url ?? null, hasSecret: webhook !== undefined, deliveries: rows.map(toDelivery) };
  }

  /**
   * Sets where a game's webhooks go (null: nowhere; events are then not queued). The first time,
   * the answer carries the new secret, shown this once.
   */
  async setUrl(appId: number, url: string | null): Promise<{ url: string | null; secret: string | null }> {
    if (url !== null) await this.#checkUrl(url);
    const existed = (await this.#repository.webhook(appId)) !== undefined;
    const row = await this.#repository.saveUrl(appId, url, isoNow(this.#clock));
    return { url: row.url, secret: existed ? null : this.#secret(appId, row.secret_generation) };
  }

  /** A new webhook secret: the previous one stops signing at once. Shown this once. */
  async rotateSecret(appId: number): Promise<{ secret: string }> {
    const generation = await this.#repository.nextSecretGeneration(appId, isoNow(this.#clock));
    return { secret: this.#secret(appId, generation) };
  }

  /**
   * Queues `order.paid` when an order becomes paid and `order.refunded` when it becomes refunded,
   * in the transaction of that change. `sourceKey` names the change (one delivery per change).
   */
  async orderChanged(trx: Kysely<Database>, change: { sourceKey: string; from: string; order: OrderFacts }): Promise<void> {
    const { order, from } = change;
    const type: WebhookEventType | null =
      order.status === 'paid' && from !== 'paid' ? 'order.paid' : order.status === 'refunded' && from !== 'refunded' ? 'order.refunded' : null;
    if (!type) return;
    await this.#enqueue(trx, order.app_id, type, change.sourceKey, {
      order: {
        id: order.public_id,
        status: order.status,
        sku: order.sku,
        amount: order.amount_minor,
        currency: order.currency,
        player: order.user_id,
        paidAt: order.paid_at,
      },
    });
  }

  /** Queues `items.consumed` for a consumption (items.consume), in its transaction. */
  async itemsConsumed(
    trx: Kysely<Database>,
    consumption: { id: number; appId: number; userId: number; sku: string; quantity: number; remaining: number; idempotencyKey: string },
  ): Promise<void> {
    await this.#enqueue(trx, consumption.appId, 'items.consumed', `consumption:${consumption.id}`, {
      consumption: {
        player: consumption.userId,
        sku: consumption.sku,
        quantity: consumption.quantity,
        remaining: consumption.remaining,
        idempotencyKey: consumption.idempotencyKey,
      },
    });
  }

  /** Queues a `test` event and sends it at once; answers the delivery as logged after the attempt. */
  async sendTest(appId: number): Promise<WebhookDelivery> {
    const webhook = await this.#repository.webhook(appId);
    if (!webhook?.url) throw new AppError('conflict', { messageKey: 'studio:webhooks.errors.noUrl' });
    const now = this.#clock.now();
    // Queued already claimed by this worker, so the attempt is this call's and no other worker's.
    const lease = { worker: this.#worker, until: new Date(now.getTime() + LEASE_SECONDS * 1000).toISOString() };
    const delivery = await this.#enqueue(
      undefined,
      appId,
      'test',
      `test:${randomBytes(12).toString('base64url')}`,
      { message: 'A test event from the Studio.' },
      lease,
    );
    if (!delivery) throw new AppError('conflict', { messageKey: 'studio:webhooks.errors.noUrl' });
    await this.#attempt(delivery, now);
    return toDelivery((await this.#repository.delivery(delivery.id))!);
  }

  /** Sends every due delivery this worker can claim, as of `now`; answers how many it attempted. */
  async deliverDue(now: Date = this.#clock.now()): Promise<number> {
    let attempted = 0;
    for (;;) {
      const claimed = await this.#claim(now);
      if (claimed.length === 0) return attempted;
      await Promise.all(claimed.map((row) => this.#attempt(row, now)));
      attempted += claimed.length;
    }
  }

  /**
   * One round of the worker: sends what is due, and at most once an hour deletes finished
   * deliveries older than the retention, keeping each game's log. Answers how many it attempted.
   */
  async work(now: Date = this.#clock.now()): Promise<number> {
    const attempted = await this.deliverDue(now);
    if (now.getTime() - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now.getTime();
      await this.#repository.prune(new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 24 * 3600 * 1000).toISOString(), LOG_LENGTH);
    }
    return attempted;
  }

  /** Runs the worker every `intervalMs` until `stop()`. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#running) return;
      this.#running = this.work()
        .catch((error: unknown) => {
          onError(error);
          return 0;
        })
        .finally(() => {
          this.#running = null;
        });
    }, intervalMs);
    this.#timer.unref();
  }

  /** Stops the worker and waits for the round in flight. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  async #checkUrl(url: string): Promise<void> {
    const problem = webhookUrlProblem(url, this.#allowPrivate);
    if (problem) throw refuseUrl(problem);
    if (!this.#allowPrivate && !(await resolvesPublicly(new URL(url).hostname))) throw refuseUrl('private_address');
  }

  #secret(appId: number, generation: number): string {
    return `whsec_${createHmac('sha256', this.#appSecret).update(`playport-webhook-secret:${appId}:${generation}`).digest('base64url')}`;
  }

  async #enqueue(
    trx: Kysely<Database> | undefined,
    appId: number,
    type: WebhookEventType,
    sourceKey: string,
    data: Record<string, unknown>,
    lease?: { worker: string; until: string },
  ) {
    const webhook = await this.#repository.webhook(appId, trx);
    if (!webhook?.url) return undefined;
    const now = isoNow(this.#clock);
    const eventId = `evt_${randomBytes(12).toString('base64url')}`;
    const payload = JSON.stringify({ id: eventId, type, createdAt: now, game: { id: appId }, data });
    return this.#repository.enqueue({ appId, eventId, eventType: type, sourceKey, payload, now, lease }, trx);
  }

  #claim(now: Date): Promise<DeliveryRow[]> {
    const leaseUntil = new Date(now.getTime() + LEASE_SECONDS * 1000).toISOString();
    return this.#repository.claimDue(this.#worker, now.toISOString(), leaseUntil, BATCH);
  }

  /** One attempt of a claimed delivery, signed now, to the game's URL as it is now. */
  async #attempt(row: DeliveryRow, now: Date = this.#clock.now()): Promise<void> {
    const webhook = await this.#repository.webhook(row.app_id);
    const attempts = row.attempts + 1;
    const answer = webhook?.url
      ? await this.#sender.post(
          webhook.url,
          {
            'content-type': 'application/json',
            'user-agent': 'Playport-Webhooks/1',
            'playport-event-id': row.event_id,
            'playport-event-type': row.event_type,
            'playport-signature': webhookSignatureHeader(this.#secret(row.app_id, webhook.secret_generation), Math.floor(now.getTime() / 1000), row.payload),
          },
          row.payload,
        )
      : { statusCode: null, body: null, error: 'no webhook URL is set' };
    const delivered = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
    const next = new Date(now.getTime() + retryDelaySeconds(attempts) * 1000);
    const givenUp = !delivered && next.getTime() > new Date(row.created_at).getTime() + GIVE_UP_AFTER_SECONDS * 1000;
    await this.#repository.finishAttempt(row.id, this.#worker, {
      status: delivered ? 'delivered' : givenUp ? 'failed' : 'pending',
      attempts,
      nextAttemptAt: delivered || givenUp ? now.toISOString() : next.toISOString(),
      at: now.toISOString(),
      statusCode: answer.statusCode,
      response: answer.body,
      error: answer.error,
    });
  }
}

/** A refused webhook URL: 422 with the reason, and the field's message in the caller's language. */
function refuseUrl(reason: string): AppError {
  return new AppError('validation', { fields: { url: [`studio:webhooks.errors.${reason}`] }, data: { reason } });
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    lastStatusCode: row.last_status_code,
    lastResponse: row.last_response,
    lastError: row.last_error,
  };
}
