import { randomBytes, randomInt } from 'node:crypto';
import type { Checkout, Delivery, Item, Order, OrderList, SandboxCheckout, SandboxPay } from '#common/api/game-store.schema.ts';
import { jsonTextDepthWithin, MAX_JSON_DEPTH } from '#common/json-depth.ts';
import type { Locale } from '#common/locales.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller, ClientFacts } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { type CheckoutProvider, paidNotifications, SANDBOX_CARDS, SANDBOX_CHALLENGE_CODE, type SandboxNotifier } from './checkout-providers.ts';
import type { OrderRow, OrderView, PaymentsRepository } from './payments.repository.ts';
import {
  eventKeyOf,
  NEXT_STATUS,
  type Notification,
  type NotificationKind,
  ORDER_NOTIFICATIONS,
  orderIdOf,
  PAYING_NOTIFICATIONS,
  paidAmountOf,
  providerOrderIdOf,
  transactionIdOf,
  userIdOf,
} from './webhook-notifications.ts';
import { hasValidSignature, XsollaRefusal } from './xsolla.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';

/** Xsolla's answer to a notification: 204, or 400 with one of its error codes. */
export interface WebhookAnswer {
  status: 204 | 400;
  error?: { code: 'INVALID_SIGNATURE' | 'INVALID_USER' | 'INVALID_PARAMETER' | 'INCORRECT_AMOUNT'; message: string };
}

/** Where a test may stop the process while a notification is handled (APP_ENV=test only). */
export type WebhookFault = 'webhook-before-commit' | 'webhook-after-commit' | undefined;

export interface PaymentsDependencies {
  repository: PaymentsRepository;
  accounts: Pick<AccountsService, 'userInfo'>;
  clock: Clock;
  /** Null when payments are off. */
  provider: CheckoutProvider | null;
  webhookSecret: string | null;
  sandboxNotifier: SandboxNotifier | null;
  fault?: WebhookFault;
  /** The server's copy of advertising conversions (decision 065); none when not configured. */
  conversions?: Pick<ConversionsService, 'purchase'>;
}

/**
 * Orders of in-game items and their payment (decision 064). Prices are the server's; every state
 * change is an event recorded once; a paid order reaches the game once.
 */
export class PaymentsService {
  readonly #repository: PaymentsRepository;
  readonly #accounts: Pick<AccountsService, 'userInfo'>;
  readonly #clock: Clock;
  readonly #provider: CheckoutProvider | null;
  readonly #webhookSecret: string | null;
  readonly #notifier: SandboxNotifier | null;
  readonly #fault: WebhookFault;
  readonly #conversions: Pick<ConversionsService, 'purchase'> | null;

  constructor(deps: PaymentsDependencies) {
    this.#repository = deps.repository;
    this.#accounts = deps.accounts;
    this.#clock = deps.clock;
    this.#provider = deps.provider;
    this.#webhookSecret = deps.webhookSecret;
    this.#notifier = deps.sandboxNotifier;
    this.#fault = deps.fault;
    this.#conversions = deps.conversions ?? null;
  }

  /** An app's items with their prices, and which of them the caller owns. */
  async items(appId: number, userId: number | null, locale: Locale): Promise<Item[]> {
    const [items, owned] = await Promise.all([this.#repository.activeItems(appId), userId ? this.#repository.ownedSkus(userId, appId) : Promise.resolve(new Set<string>())]);
    return items.map((item) => ({ sku: item.sku, name: nameOf(item.names, locale), amount: item.price_minor, currency: item.currency, owned: owned.has(item.sku) }));
  }

  /**
   * An order for an item of the app, at the item's price. A guest is asked to secure the account
   * first (403): what a guest buys would be lost with its token. The same idempotency key answers
   * the same order.
   */
  async createOrder(caller: Caller, appId: number, input: { sku: string; idempotencyKey: string }, campaign: Record<string, string>, locale: Locale): Promise<Order> {
    const provider = this.#requireProvider();
    const user = await this.#accounts.userInfo(caller.userId);
    if (user.isGuest) throw new AppError('account_not_secured', { messageKey: 'payments:errors.secureAccount' });
    const item = await this.#repository.findItem(appId, input.sku);
    if (!item) throw new AppError('not_found', { messageKey: 'payments:errors.itemNotFound', values: { sku: input.sku } });
    const now = isoNow(this.#clock);
    const order = await this.#repository.createOrder({
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
    });
    if (order.app_id !== appId || order.sku !== item.sku) throw new AppError('idempotency_key_reused', { messageKey: 'payments:errors.idempotencyKeyReused' });
    return this.#view(order.public_id, locale);
  }

  /** Opens the provider's checkout for one of the caller's orders (another member's is not found). */
  async checkout(caller: Caller, orderId: string, client: ClientFacts, locale: Locale): Promise<Checkout> {
    const provider = this.#requireProvider();
    const order = await this.#ownOrder(caller, orderId);
    if (!['created', 'pending', 'failed'].includes(order.status)) throw new AppError('order_not_payable', { messageKey: 'payments:errors.notPayable', values: { status: order.status } });
    const user = await this.#accounts.userInfo(caller.userId);
    const created = await provider.create(order, { userId: caller.userId, name: user.nickname, ip: client.address, language: locale === 'zh-CN' ? 'zh' : 'en' }).catch((cause: unknown) => {
      throw new AppError('unavailable', { messageKey: 'payments:errors.providerDown', cause: cause instanceof XsollaRefusal ? cause : undefined });
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
    if (deliveredNow && client) this.#conversions?.purchase(caller.userId, { id: order.public_id, amount: order.amount_minor, currency: order.currency }, client);
    return { order: await this.#view(order.public_id, locale), deliveredNow };
  }

  async list(caller: Caller, locale: Locale): Promise<OrderList> {
    return { items: (await this.#repository.listForUser(caller.userId, 100, locale)).map((row) => toOrder(row, locale)) };
  }

  /**
   * One Xsolla notification (decision 064). The signature is checked before anything else; then
   * the order it names, the user and the amount; the change is recorded once (a notification sent
   * again changes nothing) and commits before the 204, so a crash before the answer loses nothing:
   * Xsolla sends it again.
   */
  async handleNotification(rawBody: string, authorization: string | undefined): Promise<WebhookAnswer> {
    if (!this.#webhookSecret || !hasValidSignature(authorization, rawBody, this.#webhookSecret)) return refusal('INVALID_SIGNATURE', 'Invalid signature');
    // Refused before parsing: the body is stored as the event's payload, and JSON.stringify of a value nested thousands deep throws.
    if (!jsonTextDepthWithin(rawBody, MAX_JSON_DEPTH)) return refusal('INVALID_PARAMETER', 'The body is nested too deeply');
    let notification: Notification;
    try {
      notification = JSON.parse(rawBody) as Notification;
    } catch {
      return refusal('INVALID_PARAMETER', 'The body is not JSON');
    }
    if (typeof notification !== 'object' || notification === null) return refusal('INVALID_PARAMETER', 'The body is not an object');
    const type = String(notification.notification_type ?? '');
    if (type === 'user_validation') {
      const userId = Number(userIdOf(notification));
      return Number.isSafeInteger(userId) && userId > 0 && (await this.#repository.userExists(userId)) ? { status: 204 } : refusal('INVALID_USER', 'Unknown user');
    }
    // Types this portal does not act on are acknowledged, so Xsolla does not retry them.
    if (!ORDER_NOTIFICATIONS.has(type)) return { status: 204 };
    const kind = type as NotificationKind;
    const portalOrderId = orderIdOf(notification);
    const providerOrderId = providerOrderIdOf(notification);
    const order = portalOrderId
      ? await this.#repository.findOrder(portalOrderId)
      : providerOrderId && this.#provider
        ? await this.#repository.findByProviderOrder(this.#provider.name, providerOrderId)
        : undefined;
    if (!order) return refusal('INVALID_PARAMETER', 'Unknown order');
    if (userIdOf(notification) !== String(order.user_id)) return refusal('INVALID_USER', 'The order belongs to another user');
    if (PAYING_NOTIFICATIONS.has(kind)) {
      // Nothing is paid on a notification that does not say how much: a signed one without the amount is refused, not trusted.
      const paid = paidAmountOf(kind, notification);
      if (!paid) return refusal('INVALID_PARAMETER', 'The amount and currency are required');
      if (paid.amount !== order.amount_minor || paid.currency !== order.currency.toUpperCase()) return refusal('INCORRECT_AMOUNT', 'The amount or currency differs from the order');
    }
    await this.#repository.applyChange(
      order.id,
      { type: kind, eventKey: eventKeyOf(kind, notification, rawBody), next: NEXT_STATUS[kind], payload: notification, transactionId: transactionIdOf(notification) },
      isoNow(this.#clock),
      this.#fault === 'webhook-before-commit' ? crashNow : undefined,
    );
    if (this.#fault === 'webhook-after-commit') crashNow();
    return { status: 204 };
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
    const now = isoNow(this.#clock);
    if (order.status === 'paid' || order.status === 'refunded') return { outcome: 'paid', orderId: order.public_id };
    const approved = card === SANDBOX_CARDS.success || (card === SANDBOX_CARDS.challenge && challenge === SANDBOX_CHALLENGE_CODE);
    if (card === SANDBOX_CARDS.challenge && challenge === undefined) return { outcome: 'challenge', orderId: order.public_id };
    if (!approved) {
      await this.#repository.applyChange(order.id, { type: 'declined', eventKey: `declined:${randomBytes(8).toString('hex')}`, next: (s) => (s === 'paid' ? s : 'failed'), payload: { card: card.slice(-4) } }, now);
      return { outcome: 'declined', orderId: order.public_id };
    }
    const delivered = await this.#notifier!.send(paidNotifications(order, randomInt(100_000_000, 999_999_999)));
    if (!delivered) throw new AppError('unavailable', { messageKey: 'payments:errors.providerDown' });
    return { outcome: 'paid', orderId: order.public_id };
  }

  async #sandboxOrder(token: string): Promise<OrderRow> {
    const order = this.#provider?.name === 'sandbox' ? await this.#repository.findByProviderOrder('sandbox', token) : undefined;
    if (!order) throw new AppError('not_found', { messageKey: 'payments:errors.orderNotFound' });
    return order;
  }

  #requireProvider(): CheckoutProvider {
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

function refusal(code: NonNullable<WebhookAnswer['error']>['code'], message: string): WebhookAnswer {
  return { status: 400, error: { code, message } };
}

/** Test-only fault: the process dies here as a power cut would (no clean-up, no answer). */
function crashNow(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

/** 16 random bytes, base64url: the order id members see and Xsolla carries as external id. */
function newOrderId(): string {
  return `ord_${randomBytes(12).toString('base64url')}`;
}

function nameOf(names: string, locale: Locale): string {
  const parsed = JSON.parse(names) as Partial<Record<Locale, string>>;
  return parsed[locale] ?? parsed.en ?? '';
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
  };
}
