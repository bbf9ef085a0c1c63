import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import { PeriodicWork } from '#server/lib/periodic-work.ts';
import { randomBytes } from 'node:crypto';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError, refusal } from '#server/lib/app-error.ts';
import { backendSignature } from '#server/lib/backend-signatures.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { type OutboxState, outboxState } from '#server/lib/outbox-state.ts';
import type { Caller } from '#server/lib/caller.ts';
import type { GameSecretsService } from '../game-secrets/game-secrets.service.ts';
import type { DevelopersService } from '../studio/developers.service.ts';
import { type WebhookEventData, type WebhookEventType, webhookEventBody, webhookHeaders } from './webhook-events.schema.ts';
import type { WebhookAnswer, WebhookSender } from '../../adapters/webhooks/webhook-sender.ts';
import { resolvesPublicly } from '../../adapters/webhooks/public-address.ts';
import { type WebhookUrlProblem, webhookUrlProblem } from './webhook-url.ts';
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
  /** Why the last attempt was not made: the URL broke the address rule in force (decision 110). */
  refused: WebhookUrlProblem | null;
}

export interface WebhookSettings {
  url: string | null;
  /** Whether a secret exists: it is shown only when it is made. */
  hasSecret: boolean;
  /** When the current secret was made. */
  secretCreatedAt: string | null;
  /** Until when webhooks also carry the signature of the secret it replaced (decision 110); null when none. */
  previousSecretExpiresAt: string | null;
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
  /** Minor units given back so far, and the latest refund's time (decision 124). */
  refunded_minor: number;
  refunded_at: string | null;
  /** 1 for a test order made in a build preview (decision 111). */
  preview: number;
}

/**
 * `Playport-Signature: t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{body}"}` (docs/sdk/webhooks.md),
 * one `v1` per secret that signs: during a rotation's overlap the new one's, then the replaced
 * one's last (decision 110), so a receiver that reads only the last `v1` keeps working until it
 * moves to the new secret and to checking every `v1`.
 */
export function webhookSignatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${backendSignature(secret, String(timestamp), body)}`)].join(',');
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
  readonly #secrets: Pick<GameSecretsService, 'verifying' | 'status' | 'rotate' | 'ensure'>;
  readonly #allowPrivate: boolean;
  readonly #developers: Pick<DevelopersService, 'requireDeveloperOf'>;
  readonly #worker = `w_${randomBytes(9).toString('base64url')}`;
  readonly #rounds = new PeriodicWork(() => this.work());
  #prunedAt = 0;

  constructor(deps: {
    repository: WebhooksRepository;
    sender: WebhookSender;
    clock: Clock;
    secrets: Pick<GameSecretsService, 'verifying' | 'status' | 'rotate' | 'ensure'>;
    allowPrivateTargets: boolean;
    /** Who may see and change a game's webhook: its developer only (decision 095). */
    developers: Pick<DevelopersService, 'requireDeveloperOf'>;
  }) {
    this.#repository = deps.repository;
    this.#sender = deps.sender;
    this.#clock = deps.clock;
    this.#secrets = deps.secrets;
    this.#allowPrivate = deps.allowPrivateTargets;
    this.#developers = deps.developers;
  }

  /** A game's webhook URL and its latest deliveries, for its developer (404 to anyone else). */
  async settings(caller: Caller | null, appId: number): Promise<WebhookSettings> {
    await this.#developers.requireDeveloperOf(caller, appId);
    const [webhook, rows, secret] = await Promise.all([
      this.#repository.webhook(appId),
      this.#repository.deliveries(appId, LOG_LENGTH),
      this.#secrets.status(appId, 'webhook'),
    ]);
    return {
      url: webhook?.url ?? null,
      hasSecret: secret !== null,
      secretCreatedAt: secret?.createdAt ?? null,
      previousSecretExpiresAt: secret?.previousExpiresAt ?? null,
      deliveries: rows.map(toDelivery),
    };
  }

  /**
   * Sets where a game's webhooks go (null: nowhere; events are then not queued). The first time,
   * the answer carries the new secret, shown this once. The game's developer only.
   */
  async setUrl(caller: Caller | null, appId: number, url: string | null): Promise<{ url: string | null; secret: string | null }> {
    await this.#developers.requireDeveloperOf(caller, appId);
    if (url !== null) await this.#checkUrl(url);
    const row = await this.#repository.saveUrl(appId, url, isoNow(this.#clock));
    const secret = url === null ? null : await this.#secrets.ensure(appId, 'webhook');
    return { url: row.url, secret };
  }

  /**
   * A new webhook secret, shown this once. Until `previousExpiresAt` webhooks carry the replaced
   * secret's signature too (decision 110), so the backend can move to the new one without a gap.
   */
  async rotateSecret(caller: Caller | null, appId: number): Promise<{ secret: string; previousExpiresAt: string | null }> {
    await this.#developers.requireDeveloperOf(caller, appId);
    return this.#secrets.rotate(appId, 'webhook');
  }

  /**
   * Queues `order.paid` when an order becomes paid and `order.refunded` when it becomes refunded,
   * in the transaction of that change. `sourceKey` names the change (one delivery per change).
   */
  async orderChanged(
    unit: UnitOfWork,
    change: {
      sourceKey: string;
      from: string;
      order: OrderFacts;
      /** What the change gave back (decision 124): a full refund, or part of a paid order. */
      refund?: { amount: number; reason: string | null; at: string; itemsTakenBack: number; partial: boolean } | null;
    },
  ): Promise<void> {
    const { order, from, refund } = change;
    const type: 'order.paid' | 'order.refunded' | 'order.partially_refunded' | null =
      order.status === 'paid' && from !== 'paid'
        ? 'order.paid'
        : order.status === 'refunded' && from !== 'refunded'
          ? 'order.refunded'
          : order.status === 'paid' && refund?.partial
            ? 'order.partially_refunded'
            : null;
    if (!type) return;
    await this.#enqueue(unit, order.app_id, type, change.sourceKey, order.preview === 0, {
      order: {
        id: order.public_id,
        status: order.status,
        sku: order.sku,
        amount: order.amount_minor,
        currency: order.currency,
        player: order.user_id,
        paidAt: order.paid_at,
        ...(type === 'order.paid' ? {} : { refunded: order.refunded_minor, refundedAt: order.refunded_at }),
      },
      ...(type === 'order.paid'
        ? {}
        : {
            refund: {
              // An order refunded before it was paid gave nothing back.
              amount: refund?.amount ?? 0,
              reason: refund?.reason ?? null,
              at: refund?.at ?? order.refunded_at,
              ...(type === 'order.refunded' ? { itemsTakenBack: refund?.itemsTakenBack ?? 0 } : {}),
            },
          }),
    });
  }

  /** Queues `items.consumed` for a consumption (items.consume), in its transaction. */
  async itemsConsumed(
    unit: UnitOfWork,
    consumption: {
      id: number;
      appId: number;
      userId: number;
      sku: string;
      quantity: number;
      remaining: number;
      idempotencyKey: string;
      /** False for a consumption made in a build preview, from test holdings (decision 111). */
      livemode: boolean;
    },
  ): Promise<void> {
    await this.#enqueue(unit, consumption.appId, 'items.consumed', `consumption:${consumption.id}`, consumption.livemode, {
      consumption: {
        player: consumption.userId,
        sku: consumption.sku,
        quantity: consumption.quantity,
        remaining: consumption.remaining,
        idempotencyKey: consumption.idempotencyKey,
      },
    });
  }

  /**
   * The account erasure's step (decision 147), run before the other features' rows go: queues
   * `player.deleted` to every game with a webhook whose backend knew the player, in the erasure's
   * unit of work, so each studio deletes what its own backend keeps of them.
   */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    for (const appId of await this.#repository.gamesThatKnew(member.id, unit)) {
      await this.#enqueue(unit, appId, 'player.deleted', `player-deleted:${member.id}`, true, { player: member.id });
    }
  }

  /** Queues a `test` event and sends it at once; answers the delivery as logged after the attempt. The game's developer only. */
  async sendTest(caller: Caller | null, appId: number): Promise<WebhookDelivery> {
    await this.#developers.requireDeveloperOf(caller, appId);
    const webhook = await this.#repository.webhook(appId);
    if (!webhook?.url) throw refusal('webhook_url_missing');
    const now = this.#clock.now();
    // Queued already claimed by this worker, so the attempt is this call's and no other worker's.
    const lease = { worker: this.#worker, until: new Date(now.getTime() + LEASE_SECONDS * 1000).toISOString() };
    const delivery = await this.#enqueue(
      undefined,
      appId,
      'test',
      `test:${randomBytes(12).toString('base64url')}`,
      // Nothing real happened: a receiver treats it as test mode.
      false,
      { message: 'A test event from the Studio.' },
      lease,
    );
    if (!delivery) throw refusal('webhook_url_missing');
    await this.#attempt(delivery, now);
    return toDelivery((await this.#repository.delivery(delivery.id))!);
  }

  /** The outbox's depth and the age of its oldest pending delivery, for the metrics. */
  async outboxState(): Promise<OutboxState> {
    return outboxState(await this.#repository.pending(), this.#clock.now());
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
    this.#rounds.start(intervalMs, onError);
  }

  /** Stops the worker and waits for the round in flight. */
  stop(): Promise<void> {
    return this.#rounds.stop();
  }

  async #checkUrl(url: string): Promise<void> {
    const problem = webhookUrlProblem(url, this.#allowPrivate);
    if (problem) throw refuseUrl(problem);
    if (!this.#allowPrivate && !(await resolvesPublicly(new URL(url).hostname))) throw refuseUrl('private_address');
  }

  async #enqueue<T extends WebhookEventType>(
    unit: UnitOfWork | undefined,
    appId: number,
    type: T,
    sourceKey: string,
    livemode: boolean,
    data: WebhookEventData<T>,
    lease?: { worker: string; until: string },
  ) {
    const webhook = await this.#repository.webhook(appId, unit);
    if (!webhook?.url) return undefined;
    const now = isoNow(this.#clock);
    const eventId = `evt_${randomBytes(12).toString('base64url')}`;
    // `livemode` (decision 111): false for what a build preview's test orders and test holdings did, and for the Studio's test event.
    const payload = webhookEventBody(type, { id: eventId, createdAt: now, livemode, appId, data });
    return this.#repository.enqueue({ appId, eventId, eventType: type, sourceKey, payload, now, lease }, unit);
  }

  #claim(now: Date): Promise<DeliveryRow[]> {
    const leaseUntil = new Date(now.getTime() + LEASE_SECONDS * 1000).toISOString();
    return this.#repository.claimDue(this.#worker, now.toISOString(), leaseUntil, BATCH);
  }

  /** One attempt of a claimed delivery, signed now, to the game's URL as it is now. */
  async #attempt(row: DeliveryRow, now: Date = this.#clock.now()): Promise<void> {
    const webhook = await this.#repository.webhook(row.app_id);
    const attempts = row.attempts + 1;
    // The rule in force now, not the one the URL was saved under (a copied database, a changed APP_ENV, a tightened rule).
    const problem = webhook?.url ? webhookUrlProblem(webhook.url, this.#allowPrivate) : null;
    const secrets = webhook?.url && !problem ? await this.#secrets.verifying(row.app_id, 'webhook') : [];
    const answer: WebhookAnswer = !webhook?.url
      ? { statusCode: null, body: null, error: 'no webhook URL is set' }
      : problem
        ? { statusCode: null, body: null, error: `the URL is refused: ${problem}`, refused: true }
        : secrets.length === 0
          ? { statusCode: null, body: null, error: 'no webhook secret can be read: was APP_SECRET changed without APP_SECRET_PREVIOUS?' }
          : await this.#sender.post(
              webhook.url,
              webhookHeaders(row.event_type, row.event_id, webhookSignatureHeader(secrets, Math.floor(now.getTime() / 1000), row.payload)),
              row.payload,
            );
    const delivered = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
    const next = new Date(now.getTime() + retryDelaySeconds(attempts) * 1000);
    // A refused address is not retried: nothing was sent, and the next attempt would be refused alike.
    const givenUp = !delivered && (answer.refused === true || next.getTime() > new Date(row.created_at).getTime() + GIVE_UP_AFTER_SECONDS * 1000);
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
  return refusal('webhook_url_refused', { fields: { url: [`studio:webhooks.errors.${reason}`] }, data: { reason } });
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
    refused: refusalOf(row.last_error),
  };
}

/** The address rule a refused attempt broke, read back from its logged error. */
function refusalOf(error: string | null): WebhookUrlProblem | null {
  if (error === null) return null;
  const reason = /^the URL is refused: (\w+)$/.exec(error)?.[1];
  if (reason === 'invalid' || reason === 'scheme' || reason === 'credentials' || reason === 'private_address') return reason;
  return error.endsWith(' is not a public address') ? 'private_address' : null;
}
