import { randomBytes, randomUUID } from 'node:crypto';
import type { Checkout, Consume, Delivery, Inventory, Item, Order, OrderList, SandboxCheckout, SandboxPay } from '#common/api/game-store.schema.ts';
import type { Locale } from '#common/locales.ts';
import { majorUnitsText, toMinorUnits } from '#common/money.ts';
import type { ConsoleOrder, ConsoleOrderDetail, ConsoleOrderList } from '#common/api/console-ops.schema.ts';
import type { OrderStatus } from '#server/db/schema.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import {
  type NotificationRefusal,
  type OrderChange,
  type OrderEffect,
  type PayableOrder,
  type PaymentNotifications,
  type PaymentProvider,
  PaymentProviderFailure,
  type ProviderAnswer,
} from '#server/adapters/payments/payment-provider.ts';
import type { SandboxCards } from '#server/adapters/payments/sandbox-payments.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import type { Caller, ClientFacts } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { callMode, type Mode, type PreviewCheck } from '#server/lib/preview-access.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { BuildsService } from '../studio/builds.service.ts';
import type { MemberNames, NewOrder, OrderRow, OrderView, PaymentsRepository } from './payments.repository.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';
import type { WebhooksService } from '../webhooks/webhooks.service.ts';

/** Hooks a test may set to stop the process while a notification is handled (APP_ENV=test only). */
export interface WebhookFaults {
  beforeCommit?: () => void;
  afterCommit?: () => void;
}

export interface PaymentsDependencies {
  repository: PaymentsRepository;
  accounts: Pick<AccountsService, 'userInfo'>;
  clock: Clock;
  /** Null when payments are off. */
  provider: PaymentProvider | null;
  /** Reads and answers the webhook's notifications: the provider itself, or (payments off) a webhook that accepts none. */
  notifications: PaymentNotifications;
  /** The sandbox's test-card form, when the sandbox is the provider. */
  sandboxCards: SandboxCards | null;
  faults?: WebhookFaults;
  /** The server's copy of advertising conversions (decision 065); none when not configured. */
  conversions?: Pick<ConversionsService, 'purchase'>;
  /** The game's webhooks (decision 100), queued in the transaction of each paid, refunded or consumed change. */
  webhooks?: Pick<WebhooksService, 'orderChanged' | 'itemsConsumed'>;
  /** Lets a build's preview buy a game's items in test mode, with test payments only (decisions 097 and 111). */
  preview?: Pick<BuildsService, keyof PreviewCheck>;
}

const paid = (current: OrderStatus): OrderStatus => (current === 'created' || current === 'pending' || current === 'failed' ? 'paid' : current);
const cancelled = (current: OrderStatus): OrderStatus => (current === 'paid' || current === 'refunded' ? 'refunded' : 'cancelled');
// A declined payment fails an unpaid order: the member sees it and may pay again. A paid order is not touched.
const declined = (current: OrderStatus): OrderStatus => (current === 'created' || current === 'pending' ? 'failed' : current);

/**
 * The status an order change leads to from the current one. Statuses move so that any order of
 * arrival ends the same: a payment after a refund leaves the order refunded; a refund before the
 * payment too. A partial refund leaves the purchase in place; the event records the amount.
 */
const NEXT_STATUS: Record<OrderEffect, (current: OrderStatus) => OrderStatus> = {
  paid,
  refunded: () => 'refunded',
  'partially-refunded': (current) => current,
  cancelled,
  declined,
};

/** A state change to record: the event, and the status it leads to from the order's current one. */
interface RecordedChange {
  type: string;
  /** Two notifications with the same key are the same one: the second changes nothing. */
  eventKey: string;
  next: (current: OrderStatus) => OrderStatus;
  payload: unknown;
  transactionId?: string | null;
  /** What a refund gives back (decision 124): `amount` in minor units, null for the rest of the order; the reason given. */
  refund?: { amount: number | null; reason: string | null } | null;
}

/** A refund an applied change made: the minor units it gave back, why, when, and the consumables it took back. */
interface AppliedRefund {
  amount: number;
  reason: string | null;
  at: string;
  /** 1 when a full refund of a consumable took its unit back from the inventory, 0 when the player had used it. */
  itemsTakenBack: number;
  /** The order stays paid: part of its amount was given back. */
  partial: boolean;
}

/** A change as it was applied: its event, the status it left, the order as it now is, and the refund it made. */
interface AppliedChange {
  eventId: number;
  from: OrderStatus;
  order: OrderRow;
  refund: AppliedRefund | null;
}

/** What a consume did (decision 091). `replayed`: the key was used for this same consumption before. */
type ConsumeOutcome = { outcome: 'consumed' | 'replayed'; remaining: number } | { outcome: 'not_enough'; held: number } | { outcome: 'key_reused' };

/** Rolls a consumption's transaction back when too few are held. */
class NotEnough extends Error {
  readonly held: number;
  constructor(held: number) {
    super('not enough items');
    this.held = held;
  }
}

/**
 * Orders of in-game items and their payment (decision 064). Prices are the server's; every state
 * change is an event recorded once; a paid order reaches the game once.
 */
export class PaymentsService {
  readonly #repository: PaymentsRepository;
  readonly #accounts: Pick<AccountsService, 'userInfo'>;
  readonly #clock: Clock;
  readonly #provider: PaymentProvider | null;
  readonly #notifications: PaymentNotifications;
  readonly #sandboxCards: SandboxCards | null;
  readonly #faults: WebhookFaults;
  readonly #conversions: Pick<ConversionsService, 'purchase'> | null;
  readonly #webhooks: Pick<WebhooksService, 'orderChanged' | 'itemsConsumed'> | null;
  readonly #preview: Pick<BuildsService, keyof PreviewCheck> | null;

  constructor(deps: PaymentsDependencies) {
    this.#repository = deps.repository;
    this.#accounts = deps.accounts;
    this.#clock = deps.clock;
    this.#provider = deps.provider;
    this.#notifications = deps.notifications;
    this.#sandboxCards = deps.sandboxCards;
    this.#faults = deps.faults ?? {};
    this.#conversions = deps.conversions ?? null;
    this.#webhooks = deps.webhooks ?? null;
    this.#preview = deps.preview ?? null;
  }

  /**
   * An app's items with their prices, and which of them the caller owns: in a preview its caller
   * may use, what test orders bought; otherwise what live orders did (decision 111).
   */
  async items(appId: number, caller: Caller | null, locale: Locale, preview?: string): Promise<Item[]> {
    const mode = caller ? ((await callMode(await this.#repository.appPublished(appId), this.#preview, caller, appId, preview))?.mode ?? 'live') : 'live';
    const [items, owned] = await Promise.all([
      this.#repository.activeItems(appId),
      caller ? this.#repository.ownedSkus(caller.userId, appId, mode) : Promise.resolve(new Set<string>()),
    ]);
    return items.map((item) => ({
      sku: item.sku,
      name: nameOf(item.names, locale),
      amount: item.price_minor,
      currency: item.currency,
      owned: item.kind === 'permanent' && owned.has(item.sku),
      kind: item.kind,
    }));
  }

  /** The caller's consumables of an app (decision 091). */
  async inventory(caller: Caller, appId: number, locale: Locale, preview?: string): Promise<Inventory> {
    const mode = await this.#modeOf(caller, appId, preview);
    const rows = await this.#repository.inventory(caller.userId, appId, mode);
    return { items: rows.map((row) => ({ sku: row.sku, name: nameOf(row.names, locale), quantity: row.quantity })) };
  }

  /**
   * What a player holds of a game, for the game's backend (decision 100): permanent items with the
   * paid order of each, and consumables with their quantity. Live, or with `preview` (a label of a
   * build of this game, in the signed body) what the preview's test orders bought (decision 111).
   * 404, the same for an account that does not exist, for one that is not a player of the game.
   */
  async playerHoldings(
    appId: number,
    userId: number,
    preview?: string,
  ): Promise<{
    uid: number;
    livemode: boolean;
    permanent: { sku: string; orderId: string; paidAt: string | null }[];
    consumables: { sku: string; quantity: number }[];
  }> {
    const mode = await this.#backendMode(appId, preview);
    const player = mode === 'test' ? await this.#preview!.previewTester(appId, userId) : await this.isPlayerOf(userId, appId);
    if (!player) throw new AppError('not_found', { messageKey: 'studio:webhooks.errors.noPlayer', values: { uid: userId } });
    const [permanent, consumables] = await Promise.all([
      this.#repository.paidPermanentOrders(userId, appId, mode),
      this.#repository.inventory(userId, appId, mode),
    ]);
    return {
      uid: userId,
      livemode: mode === 'live',
      permanent: permanent.map((row) => ({ sku: row.sku, orderId: row.public_id, paidAt: row.paid_at })),
      consumables: consumables.map((row) => ({ sku: row.sku, quantity: row.quantity })),
    };
  }

  /**
   * An order of the game, for its backend to verify a purchase; another game's order is not found.
   * `livemode` is false for a preview's test order (decision 111): a backend grants nothing live for it.
   */
  async purchaseOf(appId: number, orderId: string) {
    const order = await this.#repository.findOrder(orderId);
    if (!order || order.app_id !== appId) throw new AppError('not_found', { messageKey: 'payments:errors.orderNotFound' });
    return {
      orderId: order.public_id,
      livemode: order.preview === 0,
      status: order.status,
      sku: order.sku,
      uid: order.user_id,
      amount: order.amount_minor,
      currency: order.currency,
      createdAt: order.created_at,
      paidAt: order.paid_at,
    };
  }

  /**
   * Uses up a quantity of one of the caller's consumables of the app, exactly once per
   * idempotency key (decision 091): a retry answers the same, the key with another item or
   * quantity is refused, and too few held is `not_enough_items` (nothing taken).
   */
  async consume(
    caller: Caller,
    appId: number,
    input: { sku: string; quantity: number; idempotencyKey: string },
    locale: Locale,
    preview?: string,
  ): Promise<Consume> {
    const mode = await this.#modeOf(caller, appId, preview);
    const item = await this.#repository.findItem(appId, input.sku, true);
    if (!item || item.kind !== 'consumable') throw new AppError('not_found', { messageKey: 'payments:errors.consumableNotFound', values: { sku: input.sku } });
    const webhooks = this.#webhooks;
    const done = await this.#consumeOnce(caller.userId, item.id, input.quantity, input.idempotencyKey, mode, isoNow(this.#clock), async (unit, consumption) => {
      await webhooks?.itemsConsumed(unit, {
        id: consumption.id,
        appId,
        userId: caller.userId,
        sku: item.sku,
        quantity: input.quantity,
        remaining: consumption.remaining,
        idempotencyKey: input.idempotencyKey,
        livemode: mode === 'live',
      });
    });
    switch (done.outcome) {
      case 'key_reused':
        throw new AppError('idempotency_key_reused', { messageKey: 'payments:errors.consumeKeyReused' });
      case 'not_enough':
        throw new AppError('not_enough_items', {
          messageKey: 'payments:errors.notEnoughItems',
          values: { item: nameOf(item.names, locale), held: done.held, asked: input.quantity },
          data: { sku: item.sku, held: done.held, asked: input.quantity },
        });
      default:
        return { sku: item.sku, consumed: input.quantity, remaining: done.remaining };
    }
  }

  /**
   * Uses up `quantity` of an item once per (user, key): the key is claimed and the inventory lowered
   * only where it holds enough, in one transaction (the claim waits on the unique index on
   * PostgreSQL, SQLite writes one at a time). A key seen before answers what it did then, or
   * `key_reused` when it named another item or quantity. `inTransaction` runs in the consumption's
   * transaction (the game's webhook is queued there).
   */
  async #consumeOnce(
    userId: number,
    itemId: number,
    quantity: number,
    key: string,
    mode: Mode,
    now: string,
    inTransaction: (unit: UnitOfWork, consumption: { id: number; remaining: number }) => Promise<void>,
  ): Promise<ConsumeOutcome> {
    const previous = async (): Promise<ConsumeOutcome | undefined> => {
      const row = await this.#repository.consumption(userId, key);
      if (!row) return undefined;
      return row.item_id === itemId && row.quantity === quantity && row.preview === (mode === 'test' ? 1 : 0)
        ? { outcome: 'replayed', remaining: row.remaining }
        : { outcome: 'key_reused' };
    };
    const seen = await previous();
    if (seen) return seen;
    try {
      return await this.#repository.transaction(async (unit) => {
        const id = await this.#repository.claimConsumption(userId, itemId, quantity, key, mode, now, unit);
        const remaining = await this.#repository.lowerInventory(userId, itemId, quantity, mode, now, unit);
        // Rolls the claim back: the key may be used again once the player holds enough.
        if (remaining === undefined) throw new NotEnough(await this.#repository.held(userId, itemId, mode, unit));
        await this.#repository.setConsumptionRemaining(id, remaining, unit);
        await inTransaction(unit, { id, remaining });
        return { outcome: 'consumed' as const, remaining };
      });
    } catch (error) {
      if (error instanceof NotEnough) return { outcome: 'not_enough', held: error.held };
      const raced = await previous();
      if (raced) return raced;
      throw error;
    }
  }

  /**
   * A new order, or the one this user's idempotency key made already (a retried request). The
   * unique (user, key) index decides between two requests at once. A permanent item is bought
   * once: the buyer's row is locked, so two tabs cannot both make an order. One already paid
   * refuses; one still open is answered to the other tab too, so only one checkout can be paid
   * (decision 091).
   */
  async #createOnce(order: NewOrder, options: { permanent: boolean }): Promise<OrderRow | 'already_owned'> {
    const existing = () => this.#repository.orderByKey(order.user_id, order.idempotency_key);
    const found = await existing();
    if (found) return found;
    try {
      return await this.#repository.transaction(async (unit) => {
        if (options.permanent) {
          await this.#repository.lockBuyer(order.user_id, unit);
          // A test order and a live one never answer for each other (decision 111).
          const held = await this.#repository.heldOrders(order.user_id, order.item_id, order.preview ?? 0, unit);
          if (held.some((o) => o.status === 'paid')) return 'already_owned' as const;
          if (held[0]) return held[0];
        }
        return this.#repository.insertOrder(order, unit);
      });
    } catch (error) {
      const raced = await existing();
      if (raced) return raced;
      throw error;
    }
  }

  /**
   * Records a state change once: the event row and the new status in one transaction, the
   * order's row locked meanwhile. A change whose key is recorded already changes nothing and
   * answers `duplicate`. A paid consumable is added to the inventory once, whatever notifications
   * follow (decision 091). `inTransaction` runs inside the transaction after the change (the
   * game's webhook is queued there, decision 100); `beforeCommit` runs last (the crash tests stop
   * the process there).
   */
  async #recordChange(
    orderId: number,
    change: RecordedChange,
    now: string,
    beforeCommit?: () => void,
    inTransaction?: (unit: UnitOfWork, done: AppliedChange) => Promise<void>,
  ): Promise<{ outcome: 'applied' | 'duplicate'; order: OrderRow }> {
    return this.#repository.transaction(async (unit) => {
      const order = await this.#repository.lockOrder(orderId, unit);
      if (await this.#repository.eventRecorded(orderId, change.eventKey, unit)) return { outcome: 'duplicate' as const, order };
      const status = change.next(order.status);
      const mode: Mode = order.preview === 1 ? 'test' : 'live';
      const credit = status === 'paid' && order.credited_at === null && (await this.#repository.itemKind(order.item_id, unit)) === 'consumable';
      if (credit) await this.#repository.addToInventory(order.user_id, order.item_id, order.app_id, 1, mode, now, unit);
      const refund = refundOf(order, status, change.refund ?? null, now);
      // A full refund of a credited consumable takes its unit back if the player still holds one (a used one cannot be).
      if (refund && !refund.partial && order.credited_at !== null)
        refund.itemsTakenBack = await this.#repository.takeBackOne(order.user_id, order.item_id, mode, now, unit);
      const eventId = await this.#repository.recordEvent(
        { orderId, type: change.type, eventKey: change.eventKey, from: order.status, to: status, payload: JSON.stringify(change.payload), now },
        unit,
      );
      const updated = await this.#repository.updateOrder(
        orderId,
        {
          status,
          updated_at: now,
          ...(status === 'paid' && !order.paid_at ? { paid_at: now } : {}),
          ...(change.transactionId && !order.provider_transaction_id ? { provider_transaction_id: change.transactionId } : {}),
          ...(credit ? { credited_at: now } : {}),
          ...(refund ? { refunded_minor: order.refunded_minor + refund.amount, refunded_at: now } : {}),
        },
        unit,
      );
      await inTransaction?.(unit, { eventId, from: order.status, order: updated, refund });
      beforeCommit?.();
      return { outcome: 'applied' as const, order: updated };
    });
  }

  /**
   * An order for an item of the app, at the item's price. A guest is asked to secure the account
   * first (403): what a guest buys would be lost with its token. The same idempotency key answers
   * the same order.
   */
  async createOrder(
    caller: Caller,
    appId: number,
    input: { sku: string; idempotencyKey: string },
    campaign: Record<string, string>,
    locale: Locale,
    preview?: string,
  ): Promise<Order> {
    const provider = this.#requireProvider();
    const mode = await this.#modeOf(caller, appId, preview, { refuseUnbound: true });
    // A purchase made in a preview is a test: it never reaches a checkout that takes real money.
    if (mode === 'test' && !provider.sandbox) throw new AppError('forbidden', { messageKey: 'payments:errors.previewSandboxOnly' });
    const user = await this.#accounts.userInfo(caller.userId);
    if (user.isGuest) throw new AppError('account_not_secured', { messageKey: 'payments:errors.secureAccount' });
    const item = await this.#repository.findItem(appId, input.sku);
    if (!item) throw new AppError('not_found', { messageKey: 'payments:errors.itemNotFound', values: { sku: input.sku } });
    const now = isoNow(this.#clock);
    const order = await this.#createOnce(
      {
        public_id: newOrderId(),
        user_id: caller.userId,
        app_id: appId,
        item_id: item.id,
        sku: item.sku,
        amount_minor: item.price_minor,
        currency: item.currency,
        status: 'created',
        provider: provider.name,
        idempotency_key: input.idempotencyKey,
        campaign: Object.keys(campaign).length > 0 ? JSON.stringify(campaign) : null,
        created_at: now,
        preview: mode === 'test' ? 1 : 0,
      },
      { permanent: item.kind === 'permanent' },
    );
    if (order === 'already_owned') throw this.#alreadyOwned(item.names, locale);
    if (order.app_id !== appId || order.sku !== item.sku) throw new AppError('idempotency_key_reused', { messageKey: 'payments:errors.idempotencyKeyReused' });
    return this.#view(order.public_id, locale);
  }

  /**
   * The mode of an order, inventory or consumption (decision 111). Through a build's preview of
   * this game, to its developer or a QA test member, test; otherwise live, for a published game.
   * An unpublished one answers only in test (decision 097), else 404 as a game that does not exist.
   * A preview label that does not hold on a published game is ignored, except by a purchase
   * (`refuseUnbound`): it asked for a test, so it is refused rather than made live.
   */
  async #modeOf(caller: Caller, appId: number, preview: string | undefined, options: { refuseUnbound?: boolean } = {}): Promise<Mode> {
    const call = await callMode(await this.#repository.appPublished(appId), this.#preview, caller, appId, preview);
    if (!call) throw new AppError('not_found', { messageKey: 'errors:notFound' });
    if (call.unboundLabel && options.refuseUnbound) throw new AppError('forbidden', { messageKey: 'payments:errors.previewNotBound' });
    return call.mode;
  }

  /** The guest merge's step for orders, consumables held and used (decision 137): the guest's join the member's in the merge's unit of work. */
  moveGuest(guestId: number, memberId: number, unit: UnitOfWork): Promise<void> {
    return this.#repository.moveGuestRows(guestId, memberId, unit);
  }

  /** Whether the user is a player of the live game: a play of it recorded, or a live order of it (decision 111). */
  isPlayerOf(userId: number, appId: number): Promise<boolean> {
    return this.#repository.isPlayerOf(userId, appId);
  }

  /**
   * The mode of a look-up by the game's backend (decision 111): test when the signed body names a
   * preview of a build of this game, else live. A label that does not name one is 404, as a game
   * that does not exist: a backend learns nothing from guessing labels.
   */
  async #backendMode(appId: number, preview: string | undefined): Promise<Mode> {
    if (preview === undefined) return 'live';
    if (this.#preview && (await this.#preview.previewOfGame(appId, preview))) return 'test';
    throw new AppError('not_found', { messageKey: 'errors:notFound' });
  }

  /** Opens the provider's checkout for one of the caller's orders (another member's is not found). */
  async checkout(caller: Caller, orderId: string, client: ClientFacts, locale: Locale): Promise<Checkout> {
    const provider = this.#requireProvider();
    const order = await this.#ownOrder(caller, orderId);
    if (!['created', 'pending', 'failed'].includes(order.status))
      throw new AppError('order_not_payable', { messageKey: 'payments:errors.notPayable', values: { status: order.status } });
    // Another order of a permanent item was paid meanwhile (an order made before this rule, in another tab).
    const item = await this.#repository.findItem(order.app_id, order.sku, true);
    if (item?.kind === 'permanent' && (await this.#repository.ownsItem(caller.userId, order.item_id, order.id, order.preview === 1 ? 'test' : 'live')))
      throw this.#alreadyOwned(item.names, locale);
    const user = await this.#accounts.userInfo(caller.userId);
    const created = await provider
      .createCheckout(payableOf(order), { userId: caller.userId, name: user.nickname, ip: client.address, language: locale === 'zh-CN' ? 'zh' : 'en' })
      .catch((cause: unknown) => {
        throw new AppError('unavailable', { messageKey: 'payments:errors.providerDown', cause: cause instanceof PaymentProviderFailure ? cause : undefined });
      });
    await this.#repository.markPending(order.id, created.providerOrderId, isoNow(this.#clock));
    return { url: created.url, token: created.token, provider: provider.name, sandbox: provider.sandbox };
  }

  async order(caller: Caller, orderId: string, locale: Locale): Promise<Order> {
    const order = await this.#ownOrder(caller, orderId);
    return this.#view(order.public_id, locale);
  }

  /** Hands a paid order to the game: `deliveredNow` is true for exactly one call per order. */
  async deliver(caller: Caller, orderId: string, locale: Locale, client?: ClientFacts): Promise<Delivery> {
    const order = await this.#ownOrder(caller, orderId);
    const deliveredNow = order.status === 'paid' && (await this.#repository.markDelivered(order.id, isoNow(this.#clock)));
    // The purchase the play page now tracks, with the same event id (pixel and server counted once).
    if (deliveredNow && client)
      this.#conversions?.purchase(caller.userId, { id: order.public_id, amount: order.amount_minor, currency: order.currency }, client);
    return { order: await this.#view(order.public_id, locale), deliveredNow };
  }

  async list(caller: Caller, locale: Locale): Promise<OrderList> {
    return { items: (await this.#repository.listForUser(caller.userId, 100, locale)).map((row) => toOrder(row, locale)) };
  }

  /**
   * One notification at the provider's webhook (decision 064). The provider checks its signature
   * and reads it before anything else; then the order it names, the user and the amount; the
   * change is recorded once (a notification sent again changes nothing) and commits before the
   * answer, so a crash before the answer loses nothing: the provider sends it again. The answer is
   * the provider's own format.
   */
  async handleNotification(rawBody: string, headers: { authorization?: string | undefined }): Promise<ProviderAnswer> {
    const notification = this.#notifications.readNotification(rawBody, headers);
    const refusal = await this.#verdictOn(notification);
    return this.#notifications.answer(refusal ? { accepted: false, refusal } : { accepted: true });
  }

  async #verdictOn(notification: ReturnType<PaymentNotifications['readNotification']>): Promise<NotificationRefusal | null> {
    switch (notification.kind) {
      case 'refused':
        return notification.refusal;
      case 'ignored':
        return null;
      case 'user-check': {
        const userId = Number(notification.userId);
        return Number.isSafeInteger(userId) && userId > 0 && (await this.#repository.userExists(userId)) ? null : { reason: 'user', message: 'Unknown user' };
      }
      case 'order-change':
        return this.#applyChange(notification.change);
    }
  }

  async #applyChange(change: OrderChange): Promise<NotificationRefusal | null> {
    const order = change.orderId
      ? await this.#repository.findOrder(change.orderId)
      : change.providerOrderId && this.#provider
        ? await this.#repository.findByProviderOrder(this.#provider.name, change.providerOrderId)
        : undefined;
    if (!order) return { reason: 'order', message: 'Unknown order' };
    if (change.userId !== String(order.user_id)) return { reason: 'user', message: 'The order belongs to another user' };
    if (change.effect === 'paid') {
      // Nothing is paid on a notification that does not say how much: a signed one without the amount is refused, not trusted.
      if (!change.paid) return { reason: 'malformed', message: 'The amount and currency are required' };
      if (change.paid.amount !== order.amount_minor || change.paid.currency !== order.currency.toUpperCase())
        return { reason: 'amount', message: 'The amount or currency differs from the order' };
    }
    // A refund's stated amount is in the order's currency's major units (decision 124).
    const refund = change.refund
      ? { amount: change.refund.amount === null ? null : toMinorUnits(change.refund.amount, order.currency), reason: change.refund.reason }
      : null;
    await this.#recordChange(
      order.id,
      {
        type: change.type,
        eventKey: change.eventKey,
        next: NEXT_STATUS[change.effect],
        payload: change.payload,
        transactionId: change.transactionId,
        refund,
      },
      isoNow(this.#clock),
      this.#faults.beforeCommit,
      (unit, done) => this.#queueWebhook(unit, done),
    );
    this.#faults.afterCommit?.();
    return null;
  }

  /** Orders an operator looks for (decision 098); the caller was checked to be an operator. */
  async searchForOperator(query: string | null, locale: Locale): Promise<ConsoleOrderList> {
    return { items: (await this.#repository.search(query || null, 50, locale)).map((row) => toConsoleOrder(row, locale)) };
  }

  /** One order with every event, for an operator. */
  async orderForOperator(orderId: string, locale: Locale): Promise<ConsoleOrderDetail> {
    const row = await this.#repository.findForOperator(orderId, locale);
    if (!row) throw new AppError('not_found', { messageKey: 'payments:errors.orderNotFound' });
    const events = await this.#repository.eventLog(row.id);
    return { order: toConsoleOrder(row, locale), events: events.map((e) => ({ type: e.type, from: e.from_status, to: e.to_status, at: e.created_at })) };
  }

  /**
   * An operator's refund (decision 098): the provider is asked once, whatever number of requests
   * arrive (the order's claim decides), and the order then becomes refunded through the same
   * change a provider's refund notification makes, with `record` (the audit entry) written in that
   * change's transaction. A refunded order, or one being refunded, answers `refundedNow: false`.
   * When the provider refuses, the claim is given back and nothing else changed.
   *
   * `amount` (minor units) below what is left of the order asks for a partial refund (decision
   * 124): the order stays paid, the claim is given back once the provider took the request, and the
   * amount counts when the provider's `partial_refund` notification arrives (the sandbox's at once).
   */
  async refundForOperator(
    orderId: string,
    reason: string,
    record: (unit: UnitOfWork) => Promise<void>,
    locale: Locale,
    amount?: number,
  ): Promise<{ refundedNow: boolean } & ConsoleOrderDetail> {
    const order = await this.#repository.findOrder(orderId);
    if (!order) throw new AppError('not_found', { messageKey: 'payments:errors.orderNotFound' });
    const answer = async (refundedNow: boolean) => ({ refundedNow, ...(await this.orderForOperator(orderId, locale)) });
    if (order.status === 'refunded' || order.refund_requested_at !== null) return answer(false);
    if (order.status !== 'paid') throw new AppError('order_not_refundable', { values: { status: order.status } });
    const left = order.amount_minor - order.refunded_minor;
    if (amount !== undefined && (amount < 1 || amount > left))
      throw fieldError({ amount: [{ key: 'payments:errors.refundAmount', values: { left: majorUnitsText(left, order.currency), currency: order.currency } }] });
    const partial = amount !== undefined && amount < left;
    const provider = this.#requireProvider();
    if (!(await this.#repository.claimRefund(order.id, isoNow(this.#clock)))) {
      const now = await this.#repository.findOrder(orderId);
      if (now?.status === 'paid' || now?.status === 'refunded') return answer(false);
      throw new AppError('order_not_refundable', { values: { status: now?.status ?? order.status } });
    }
    try {
      await provider.refund(payableOf(order), reason, partial ? amount : undefined);
    } catch (cause) {
      await this.#repository.releaseRefund(order.id);
      throw new AppError('unavailable', { messageKey: 'payments:errors.providerDown', cause });
    }
    if (partial) {
      // The operator's request is an event of its own (audited with it); the amount counts with the provider's notification.
      await this.#recordChange(
        order.id,
        { type: 'operator_partial_refund', eventKey: `operator-partial-refund:${randomUUID()}`, next: (current) => current, payload: { reason, amount } },
        isoNow(this.#clock),
        undefined,
        (unit) => record(unit),
      );
      await this.#repository.releaseRefund(order.id);
      return answer(true);
    }
    await this.#recordChange(
      order.id,
      { type: 'operator_refund', eventKey: 'operator-refund', next: NEXT_STATUS.refunded, payload: { reason }, refund: { amount: null, reason } },
      isoNow(this.#clock),
      undefined,
      // The audit entry and the game's refunded webhook commit with the refund.
      async (unit, done) => {
        await record(unit);
        await this.#queueWebhook(unit, done);
      },
    );
    return answer(true);
  }

  /** Queues the game's webhook for an order change (decision 100), inside the change's transaction. */
  async #queueWebhook(unit: UnitOfWork, done: AppliedChange): Promise<void> {
    await this.#webhooks?.orderChanged(unit, { sourceKey: `order-event:${done.eventId}`, from: done.from, order: done.order, refund: done.refund });
  }

  /** The sandbox checkout page's order (by its checkout token). */
  async sandboxCheckout(token: string, locale: Locale): Promise<SandboxCheckout> {
    const order = await this.#sandboxOrder(token);
    const view = await this.#view(order.public_id, locale);
    return { orderId: view.id, itemName: view.itemName, appTitle: view.appTitle, amount: view.amount, currency: view.currency, status: view.status };
  }

  /**
   * The sandbox's card payment: a test card succeeds, fails, or asks for a challenge first
   * (code 1234). A success is told to the webhook as Xsolla tells it; the answer says what the
   * card did, and the order follows once the webhook took it.
   */
  async sandboxPay(token: string, card: string, challenge: string | undefined): Promise<SandboxPay> {
    const order = await this.#sandboxOrder(token);
    if (order.status === 'paid' || order.status === 'refunded') return { outcome: 'paid', orderId: order.public_id };
    const outcome = await this.#sandboxCards!.pay(payableOf(order), card, challenge).catch((cause: unknown) => {
      throw new AppError('unavailable', { messageKey: 'payments:errors.providerDown', cause });
    });
    if (outcome === 'declined') {
      const change = {
        type: 'declined',
        eventKey: `declined:${randomBytes(8).toString('hex')}`,
        next: (s: OrderStatus) => (s === 'paid' ? s : 'failed'),
        payload: { card: card.slice(-4) },
      };
      await this.#recordChange(order.id, change, isoNow(this.#clock));
    }
    return { outcome, orderId: order.public_id };
  }

  async #sandboxOrder(token: string): Promise<OrderRow> {
    const order = this.#sandboxCards ? await this.#repository.findByProviderOrder('sandbox', token) : undefined;
    if (!order) throw new AppError('not_found', { messageKey: 'payments:errors.orderNotFound' });
    return order;
  }

  #alreadyOwned(names: string, locale: Locale): AppError {
    return new AppError('already_owned', { messageKey: 'payments:errors.alreadyOwned', values: { item: nameOf(names, locale) } });
  }

  #requireProvider(): PaymentProvider {
    if (!this.#provider) throw new AppError('not_found', { messageKey: 'payments:errors.unavailable' });
    return this.#provider;
  }

  async #ownOrder(caller: Caller, orderId: string): Promise<OrderRow> {
    const order = await this.#repository.findOrder(orderId);
    if (!order || order.user_id !== caller.userId) throw new AppError('not_found', { messageKey: 'payments:errors.orderNotFound' });
    return order;
  }

  async #view(publicId: string, locale: Locale): Promise<Order> {
    return toOrder((await this.#repository.findView(publicId, locale))!, locale);
  }
}

/**
 * The refund a change makes (decision 124): a paid order becoming refunded gives back what partial
 * refunds left (the unit taken back is counted by the caller); a partial refund of a paid order
 * gives back the stated amount, never more than is left, and takes nothing back. Anything else
 * refunds nothing.
 */
function refundOf(order: OrderRow, status: OrderStatus, stated: { amount: number | null; reason: string | null } | null, now: string): AppliedRefund | null {
  const left = order.amount_minor - order.refunded_minor;
  if (order.status === 'paid' && status === 'refunded') return { amount: left, reason: stated?.reason ?? null, at: now, itemsTakenBack: 0, partial: false };
  if (order.status === 'paid' && status === 'paid' && stated?.amount != null && stated.amount > 0 && left > 0)
    return { amount: Math.min(stated.amount, left), reason: stated.reason, at: now, itemsTakenBack: 0, partial: true };
  return null;
}

/** An order as the provider sees it. */
export function payableOf(row: OrderRow): PayableOrder {
  return {
    id: row.public_id,
    userId: row.user_id,
    sku: row.sku,
    amount: row.amount_minor,
    currency: row.currency,
    providerOrderId: row.provider_order_id,
    providerTransactionId: row.provider_transaction_id,
  };
}

/** 16 random bytes, base64url: the order id members see and Xsolla carries as external id. */
function newOrderId(): string {
  return `ord_${randomBytes(12).toString('base64url')}`;
}

function nameOf(names: string, locale: Locale): string {
  const parsed = JSON.parse(names) as Partial<Record<Locale, string>>;
  return parsed[locale] ?? parsed.en ?? '';
}

function toConsoleOrder(row: OrderView & MemberNames, locale: Locale): ConsoleOrder {
  const { delivered: _delivered, ...order } = toOrder(row, locale);
  return {
    ...order,
    providerOrderId: row.provider_order_id,
    refundRequestedAt: row.refund_requested_at,
    refunded: row.refunded_minor,
    refundedAt: row.refunded_at,
    member: { id: row.user_id, username: row.username, email: row.email },
  };
}

function toOrder(row: OrderView, locale: Locale): Order {
  return {
    id: row.public_id,
    appId: row.app_id,
    appTitle: row.app_title,
    sku: row.sku,
    itemName: nameOf(row.names, locale),
    amount: row.amount_minor,
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    providerReference: row.provider_transaction_id,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    delivered: row.delivered_at !== null,
    livemode: row.preview === 0,
  };
}
