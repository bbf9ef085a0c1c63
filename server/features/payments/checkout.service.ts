import { randomBytes } from 'node:crypto';
import type { Checkout, Delivery, Order, OrderList, SandboxCheckout, SandboxPay } from '#common/api/game-store.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { OrderStatus } from '#server/db/schema.ts';
import { type PaymentProvider, PaymentProviderFailure } from '#server/adapters/payments/payment-provider.ts';
import type { SandboxCards } from '#server/adapters/payments/sandbox-payments.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller, ClientFacts } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { PreviewCheck } from '#server/lib/preview-access.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { BuildsService } from '../studio/builds.service.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';
import { modeOf, requireProvider } from './payments-access.ts';
import type { PaymentsDependencies } from './payments-dependencies.ts';
import type { NewOrder, OrderRow, PaymentsRepository } from './payments.repository.ts';
import type { OrderChangesService } from './order-changes.service.ts';
import { nameOf, payableOf, toOrder } from './order-views.ts';

/**
 * A member's orders (decision 064): the order at the item's price, the provider's checkout, the
 * paid order handed to the game once, and the sandbox's checkout page.
 */
export class CheckoutService {
  readonly #repository: PaymentsRepository;
  readonly #accounts: Pick<AccountsService, 'userInfo'>;
  readonly #clock: Clock;
  readonly #provider: PaymentProvider | null;
  readonly #sandboxCards: SandboxCards | null;
  readonly #conversions: Pick<ConversionsService, 'purchase'> | null;
  readonly #preview: Pick<BuildsService, keyof PreviewCheck> | null;
  readonly #changes: OrderChangesService;

  constructor(
    deps: Pick<PaymentsDependencies, 'repository' | 'accounts' | 'clock' | 'provider' | 'sandboxCards' | 'conversions' | 'preview'>,
    changes: OrderChangesService,
  ) {
    this.#repository = deps.repository;
    this.#accounts = deps.accounts;
    this.#clock = deps.clock;
    this.#provider = deps.provider;
    this.#sandboxCards = deps.sandboxCards;
    this.#conversions = deps.conversions ?? null;
    this.#preview = deps.preview ?? null;
    this.#changes = changes;
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
    const provider = requireProvider(this.#provider);
    const mode = await modeOf(this.#repository, this.#preview, caller, appId, preview, { refuseUnbound: true });
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

  /** Opens the provider's checkout for one of the caller's orders (another member's is not found). */
  async checkout(caller: Caller, orderId: string, client: ClientFacts, locale: Locale): Promise<Checkout> {
    const provider = requireProvider(this.#provider);
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
      await this.#changes.record(order.id, change, isoNow(this.#clock));
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

  async #ownOrder(caller: Caller, orderId: string): Promise<OrderRow> {
    const order = await this.#repository.findOrder(orderId);
    if (!order || order.user_id !== caller.userId) throw new AppError('not_found', { messageKey: 'payments:errors.orderNotFound' });
    return order;
  }

  async #view(publicId: string, locale: Locale): Promise<Order> {
    return toOrder((await this.#repository.findView(publicId, locale))!, locale);
  }
}

/** 16 random bytes, base64url: the order id members see and Xsolla carries as external id. */
function newOrderId(): string {
  return `ord_${randomBytes(12).toString('base64url')}`;
}
