import type { MemberDataFile } from '../member-data/member-data.service.ts';
import type { Consume, Inventory, Item } from '#common/api/game-store.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { callMode, type Mode, type PreviewCheck } from '#server/lib/preview-access.ts';
import type { BuildsService } from '../studio/builds.service.ts';
import type { WebhooksService } from '../webhooks/webhooks.service.ts';
import { modeOf } from './payments-access.ts';
import type { PaymentsDependencies } from './payments-dependencies.ts';
import type { PaymentsRepository } from './payments.repository.ts';
import { nameOf } from './order-views.ts';

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
 * What players hold of a game's items (decision 091): the items with what the caller owns, the
 * consumables and their consumption, and a game backend's look-ups of holdings and purchases.
 */
export class ItemHoldingsService {
  readonly #repository: PaymentsRepository;
  readonly #clock: Clock;
  readonly #webhooks: Pick<WebhooksService, 'orderChanged' | 'itemsConsumed'> | null;
  readonly #preview: Pick<BuildsService, keyof PreviewCheck> | null;

  constructor(deps: Pick<PaymentsDependencies, 'repository' | 'clock' | 'webhooks' | 'preview'>) {
    this.#repository = deps.repository;
    this.#clock = deps.clock;
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
    const mode = await modeOf(this.#repository, this.#preview, caller, appId, preview);
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
    const mode = await modeOf(this.#repository, this.#preview, caller, appId, preview);
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

  /** The account erasure's step (decision 147): items held and used go; orders stay, pseudonymised. */
  eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    return this.#repository.eraseMember(userId, unit);
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

  /** The member's orders and items in "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    const { orders, items, consumptions } = await this.#repository.personalDataOf(userId);
    return [
      { name: 'orders.json', content: orders.map((order) => ({ ...order, preview: Boolean(order.preview) })) },
      { name: 'items.json', content: items },
      { name: 'items-used.json', content: consumptions.map((used) => ({ ...used, preview: Boolean(used.preview) })) },
    ];
  }
}
