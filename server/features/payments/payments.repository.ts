import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { Locale } from '#common/locales.ts';
import type { DatabaseKind } from '#server/db/client.ts';
import type { Database, ItemKind, OrdersTable, OrderStatus } from '#server/db/schema.ts';
import type { Mode } from '#server/lib/preview-access.ts';

export type OrderRow = Selectable<OrdersTable>;

export interface ItemRow {
  id: number;
  app_id: number;
  sku: string;
  price_minor: number;
  currency: string;
  names: string;
  kind: ItemKind;
}

const ITEM_COLUMNS = ['id', 'app_id', 'sku', 'price_minor', 'currency', 'names', 'kind'] as const;

/** What a consume did (decision 091). `replayed`: the key was used for this same consumption before. */
export type ConsumeOutcome = { outcome: 'consumed' | 'replayed'; remaining: number } | { outcome: 'not_enough'; held: number } | { outcome: 'key_reused' };

class NotEnough extends Error {
  readonly held: number;
  constructor(held: number) {
    super('not enough items');
    this.held = held;
  }
}

/** An order with the names the member's area shows. */
export interface OrderView extends OrderRow {
  app_title: string;
  names: string;
}

/** The member an order belongs to, as operators see them. */
export interface MemberNames {
  username: string | null;
  email: string | null;
}

/** A state change to record: the event, and the status it leads to from the order's current one. */
export interface OrderChange {
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
export interface AppliedRefund {
  amount: number;
  reason: string | null;
  at: string;
  /** 1 when a full refund of a consumable took its unit back from the inventory, 0 when the player had used it. */
  itemsTakenBack: number;
  /** The order stays paid: part of its amount was given back. */
  partial: boolean;
}

/** `orders.preview` and `item_consumptions.preview` of a mode (decision 111). */
const previewFlag = (mode: Mode) => (mode === 'test' ? 1 : 0);

/** Items, orders and their append-only events. */
export class PaymentsRepository {
  readonly #db: Kysely<Database>;
  readonly #kind: DatabaseKind;
  constructor(db: Kysely<Database>, kind: DatabaseKind) {
    this.#db = db;
    this.#kind = kind;
  }

  activeItems(appId: number): Promise<ItemRow[]> {
    return this.#db
      .selectFrom('app_items')
      .select(ITEM_COLUMNS)
      .where('app_id', '=', appId)
      .where('active', '=', 1)
      .orderBy('price_minor')
      .orderBy('sku')
      .execute();
  }

  /** An item on sale; `soldOrNot` also finds one the catalogue no longer lists (an inventory may still hold it). */
  findItem(appId: number, sku: string, soldOrNot = false): Promise<ItemRow | undefined> {
    return this.#db
      .selectFrom('app_items')
      .select(ITEM_COLUMNS)
      .where('app_id', '=', appId)
      .where('sku', '=', sku)
      .$if(!soldOrNot, (q) => q.where('active', '=', 1))
      .executeTakeFirst();
  }

  /** Whether the app is published; undefined when there is no such app. */
  async appPublished(appId: number): Promise<boolean | undefined> {
    const row = await this.#db.selectFrom('apps').select('published').where('id', '=', appId).executeTakeFirst();
    return row === undefined ? undefined : row.published === 1;
  }

  /** What the user holds of an app's consumables in a mode (quantities above zero), with the items' names. */
  inventory(userId: number, appId: number, mode: Mode): Promise<{ sku: string; names: string; quantity: number }[]> {
    const quantity = mode === 'test' ? 'inventory.preview_quantity' : 'inventory.quantity';
    return this.#db
      .selectFrom('inventory')
      .innerJoin('app_items', 'app_items.id', 'inventory.item_id')
      .select(['app_items.sku', 'app_items.names', `${quantity} as quantity`])
      .where('inventory.user_id', '=', userId)
      .where('inventory.app_id', '=', appId)
      .where(quantity, '>', 0)
      .orderBy('app_items.sku')
      .execute();
  }

  /**
   * Uses up `quantity` of an item once per (user, key): the key is claimed by inserting it (a
   * second request with it at once waits on the unique index on PostgreSQL, SQLite writes one at a
   * time) and the inventory is lowered only where it holds enough, in the same transaction. A key
   * seen before answers what it did then, or `key_reused` when it named another item or quantity.
   * `inTransaction` runs in the consumption's transaction (the game's webhook is queued there).
   */
  async consume(
    userId: number,
    itemId: number,
    quantity: number,
    key: string,
    mode: Mode,
    now: string,
    inTransaction?: (trx: Kysely<Database>, consumption: { id: number; remaining: number }) => Promise<void>,
  ): Promise<ConsumeOutcome> {
    const previous = async (): Promise<ConsumeOutcome | undefined> => {
      const row = await this.#db
        .selectFrom('item_consumptions')
        .select(['item_id', 'quantity', 'remaining', 'preview'])
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
      if (!row) return undefined;
      return row.item_id === itemId && row.quantity === quantity && row.preview === previewFlag(mode)
        ? { outcome: 'replayed', remaining: row.remaining }
        : { outcome: 'key_reused' };
    };
    const seen = await previous();
    if (seen) return seen;
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const claim = await trx
          .insertInto('item_consumptions')
          .values({ user_id: userId, item_id: itemId, idempotency_key: key, quantity, remaining: 0, created_at: now, preview: previewFlag(mode) })
          .returning('id')
          .executeTakeFirstOrThrow();
        const column = mode === 'test' ? 'preview_quantity' : 'quantity';
        const lowered = await trx
          .updateTable('inventory')
          .set({ [column]: sql<number>`${sql.ref(`inventory.${column}`)} - ${quantity}`, updated_at: now })
          .where('user_id', '=', userId)
          .where('item_id', '=', itemId)
          .where(column, '>=', quantity)
          .returning(`${column} as quantity`)
          .executeTakeFirst();
        if (!lowered) {
          const held = await trx
            .selectFrom('inventory')
            .select(`${column} as quantity`)
            .where('user_id', '=', userId)
            .where('item_id', '=', itemId)
            .executeTakeFirst();
          // Rolls the claim back: the key may be used again once the player holds enough.
          throw new NotEnough(held?.quantity ?? 0);
        }
        await trx.updateTable('item_consumptions').set({ remaining: lowered.quantity }).where('id', '=', claim.id).execute();
        await inTransaction?.(trx, { id: claim.id, remaining: lowered.quantity });
        return { outcome: 'consumed' as const, remaining: lowered.quantity };
      });
    } catch (error) {
      if (error instanceof NotEnough) return { outcome: 'not_enough', held: error.held };
      const raced = await previous();
      if (raced) return raced;
      throw error;
    }
  }

  /** Whether the user has a paid order of the item in the mode, other than `exceptOrderId`. */
  async ownsItem(userId: number, itemId: number, exceptOrderId: number, mode: Mode): Promise<boolean> {
    const row = await this.#db
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .where('status', '=', 'paid')
      .where('preview', '=', previewFlag(mode))
      .where('id', '!=', exceptOrderId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The user's paid orders of an app's permanent items in a mode, oldest first. */
  paidPermanentOrders(userId: number, appId: number, mode: Mode): Promise<{ sku: string; public_id: string; paid_at: string | null }[]> {
    return this.#db
      .selectFrom('orders')
      .innerJoin('app_items', 'app_items.id', 'orders.item_id')
      .select(['orders.sku', 'orders.public_id', 'orders.paid_at'])
      .where('orders.user_id', '=', userId)
      .where('orders.app_id', '=', appId)
      .where('orders.status', '=', 'paid')
      .where('orders.preview', '=', previewFlag(mode))
      .where('app_items.kind', '=', 'permanent')
      .orderBy('orders.id')
      .execute();
  }

  /** SKUs of an app the user has a paid order of in a mode (refunded and cancelled ones no longer count). */
  async ownedSkus(userId: number, appId: number, mode: Mode): Promise<Set<string>> {
    const rows = await this.#db
      .selectFrom('orders')
      .select('sku')
      .distinct()
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('status', '=', 'paid')
      .where('preview', '=', previewFlag(mode))
      .execute();
    return new Set(rows.map((r) => r.sku));
  }

  /**
   * A new order, or the one this user's idempotency key made already (a retried request). The
   * unique (user, key) index decides between two requests at once.
   */
  async createOrder(
    order: Omit<
      OrderRow,
      | 'id'
      | 'updated_at'
      | 'paid_at'
      | 'delivered_at'
      | 'provider_order_id'
      | 'provider_transaction_id'
      | 'credited_at'
      | 'refund_requested_at'
      | 'refunded_minor'
      | 'refunded_at'
      | 'preview'
    > & { preview?: number },
    options: { permanent?: boolean } = {},
  ): Promise<OrderRow | 'already_owned'> {
    const existing = () =>
      this.#db.selectFrom('orders').selectAll().where('user_id', '=', order.user_id).where('idempotency_key', '=', order.idempotency_key).executeTakeFirst();
    const found = await existing();
    if (found) return found;
    try {
      return await this.#db.transaction().execute(async (trx) => {
        if (options.permanent) {
          // A permanent item is bought once: the buyer's row is locked (PostgreSQL; SQLite writes one
          // at a time), so two tabs cannot both make an order. One already paid refuses; one still
          // open is answered to the other tab too, so only one checkout can be paid (decision 091).
          const lock = trx.selectFrom('users').select('id').where('id', '=', order.user_id);
          await (this.#kind === 'postgres' ? lock.forUpdate() : lock).executeTakeFirst();
          const held = await trx
            .selectFrom('orders')
            .selectAll()
            .where('user_id', '=', order.user_id)
            .where('item_id', '=', order.item_id)
            .where('status', 'in', ['paid', 'created', 'pending'])
            // A test order and a live one never answer for each other (decision 111).
            .where('preview', '=', order.preview ?? 0)
            .orderBy('id', 'desc')
            .execute();
          if (held.some((o) => o.status === 'paid')) return 'already_owned' as const;
          if (held[0]) return held[0];
        }
        const row = await trx
          .insertInto('orders')
          .values({
            ...order,
            updated_at: order.created_at,
            paid_at: null,
            delivered_at: null,
            provider_order_id: null,
            provider_transaction_id: null,
            credited_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('order_events')
          .values({
            order_id: row.id,
            type: 'created',
            event_key: 'created',
            from_status: null,
            to_status: row.status,
            payload: null,
            created_at: order.created_at,
          })
          .execute();
        return row;
      });
    } catch (error) {
      const raced = await existing();
      if (raced) return raced;
      throw error;
    }
  }

  findOrder(publicId: string): Promise<OrderRow | undefined> {
    return this.#db.selectFrom('orders').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  }

  findByProviderOrder(provider: string, providerOrderId: string): Promise<OrderRow | undefined> {
    return this.#db.selectFrom('orders').selectAll().where('provider', '=', provider).where('provider_order_id', '=', providerOrderId).executeTakeFirst();
  }

  /**
   * Notes the provider's order (its checkout) and that the order waits for payment. Each update
   * names the status it changes from: a payment that commits meanwhile (the status read before
   * would be stale) is never written over, and a paid order keeps the provider order it was paid on.
   */
  async markPending(orderId: number, providerOrderId: string, now: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      const opened = await trx
        .updateTable('orders')
        .set({ provider_order_id: providerOrderId, status: 'pending', updated_at: now })
        .where('id', '=', orderId)
        .where('status', '=', 'created')
        .returning('status')
        .executeTakeFirst();
      const reopened = opened
        ? undefined
        : await trx
            .updateTable('orders')
            .set({ provider_order_id: providerOrderId, updated_at: now })
            .where('id', '=', orderId)
            .where('status', 'in', ['pending', 'failed'])
            .returning('status')
            .executeTakeFirst();
      if (!opened && !reopened) return;
      const to: OrderStatus = opened ? 'pending' : reopened!.status;
      await trx
        .insertInto('order_events')
        .values({
          order_id: orderId,
          type: 'checkout',
          event_key: `checkout:${providerOrderId}`,
          from_status: opened ? 'created' : to,
          to_status: to,
          payload: null,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['order_id', 'event_key']).doNothing())
        .execute();
    });
  }

  /**
   * Records a state change once: the event row and the new status in one transaction, the
   * order's row locked meanwhile (PostgreSQL; SQLite writes one at a time). A change whose key is
   * recorded already changes nothing and answers `duplicate`. `inTransaction` runs inside the
   * transaction after the change (the game's webhook is queued there, decision 100);
   * `beforeCommit` runs last (the crash tests stop the process there).
   */
  async applyChange(
    orderId: number,
    change: OrderChange,
    now: string,
    beforeCommit?: () => void,
    inTransaction?: (trx: Kysely<Database>, change: { eventId: number; from: OrderStatus; order: OrderRow; refund: AppliedRefund | null }) => Promise<void>,
  ): Promise<{ outcome: 'applied' | 'duplicate'; order: OrderRow }> {
    return this.#db.transaction().execute(async (trx) => {
      const query = trx.selectFrom('orders').selectAll().where('id', '=', orderId);
      const order = await (this.#kind === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
      const seen = await trx
        .selectFrom('order_events')
        .select('id')
        .where('order_id', '=', orderId)
        .where('event_key', '=', change.eventKey)
        .executeTakeFirst();
      if (seen) return { outcome: 'duplicate' as const, order };
      const status = change.next(order.status);
      // A paid consumable is added to the inventory once, whatever notifications follow (decision 091).
      const credit = status === 'paid' && order.credited_at === null && (await isConsumable(trx, order.item_id));
      if (credit) await addToInventory(trx, order.user_id, order.item_id, order.app_id, 1, order.preview === 1 ? 'test' : 'live', now);
      const refund = await refundOf(trx, order, status, change.refund ?? null, now);
      const event = await trx
        .insertInto('order_events')
        .values({
          order_id: orderId,
          type: change.type,
          event_key: change.eventKey,
          from_status: order.status,
          to_status: status,
          payload: JSON.stringify(change.payload),
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const updated = await trx
        .updateTable('orders')
        .set({
          status,
          updated_at: now,
          ...(status === 'paid' && !order.paid_at ? { paid_at: now } : {}),
          ...(change.transactionId && !order.provider_transaction_id ? { provider_transaction_id: change.transactionId } : {}),
          ...(credit ? { credited_at: now } : {}),
          ...(refund ? { refunded_minor: order.refunded_minor + refund.amount, refunded_at: now } : {}),
        })
        .where('id', '=', orderId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await inTransaction?.(trx, { eventId: event.id, from: order.status, order: updated, refund });
      beforeCommit?.();
      return { outcome: 'applied' as const, order: updated };
    });
  }

  /** Marks a paid order delivered to the game; true only for the one call that did it. */
  async markDelivered(orderId: number, now: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('orders')
      .set({ delivered_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'paid')
      .where('delivered_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Orders with their app's title in the locale (else English, which always exists) and item names, as views show them. */
  #views(locale: Locale) {
    return (
      this.#db
        .selectFrom('orders')
        .innerJoin('app_items', 'app_items.id', 'orders.item_id')
        .innerJoin('app_translations as en', (join) => join.onRef('en.app_id', '=', 'orders.app_id').on('en.locale', '=', 'en'))
        .leftJoin('app_translations as t', (join) => join.onRef('t.app_id', '=', 'orders.app_id').on('t.locale', '=', locale))
        .selectAll('orders')
        // The item names carry every locale.
        .select([sql<string>`coalesce(t.title, en.title)`.as('app_title'), 'app_items.names'])
    );
  }

  listForUser(userId: number, limit: number, locale: Locale): Promise<OrderView[]> {
    return this.#views(locale).where('orders.user_id', '=', userId).orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc').limit(limit).execute();
  }

  async findView(publicId: string, locale: Locale): Promise<OrderView | undefined> {
    return this.#views(locale).where('orders.public_id', '=', publicId).executeTakeFirst();
  }

  /**
   * Orders an operator looks for (decision 098): by the order id, the provider's transaction or
   * order reference, or the member (id, username, e-mail); the newest first. Without a query, the newest.
   */
  search(query: string | null, limit: number, locale: Locale): Promise<(OrderView & MemberNames)[]> {
    let select = this.#views(locale)
      .innerJoin('users', 'users.id', 'orders.user_id')
      .select(['users.username', 'users.email'])
      .orderBy('orders.id', 'desc')
      .limit(limit);
    if (query) {
      const lower = query.toLowerCase();
      const id = /^\d{1,15}$/.test(query) ? Number(query) : null;
      select = select.where((eb) =>
        eb.or([
          eb('orders.public_id', '=', query),
          eb('orders.provider_transaction_id', '=', query),
          eb('orders.provider_order_id', '=', query),
          eb('users.username_normalized', '=', lower),
          eb(eb.fn('lower', ['users.email']), '=', lower),
          ...(id !== null ? [eb('orders.user_id', '=', id)] : []),
        ]),
      );
    }
    return select.execute();
  }

  /** One order with its member's names, for operators. */
  findForOperator(publicId: string, locale: Locale): Promise<(OrderView & MemberNames) | undefined> {
    return this.#views(locale)
      .innerJoin('users', 'users.id', 'orders.user_id')
      .select(['users.username', 'users.email'])
      .where('orders.public_id', '=', publicId)
      .executeTakeFirst();
  }

  /** Every event of an order, oldest first. */
  eventLog(orderId: number): Promise<{ type: string; from_status: string | null; to_status: string; created_at: string }[]> {
    return this.#db
      .selectFrom('order_events')
      .select(['type', 'from_status', 'to_status', 'created_at'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  }

  /**
   * Claims a paid order's refund for one operator (decision 098): true for exactly one of any
   * number of requests at once (the update re-reads the row after a concurrent one commits).
   */
  async claimRefund(orderId: number, now: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('orders')
      .set({ refund_requested_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'paid')
      .where('refund_requested_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives the claim back when the provider refused the refund, so it may be asked again. */
  async releaseRefund(orderId: number): Promise<void> {
    await this.#db.updateTable('orders').set({ refund_requested_at: null }).where('id', '=', orderId).where('status', '=', 'paid').execute();
  }

  async userExists(userId: number): Promise<boolean> {
    return (await this.#db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
  }

  /** Whether the user is a player of the live game: a play of it recorded, or a live order of it (decision 111). */
  async isPlayerOf(userId: number, appId: number): Promise<boolean> {
    const played = await this.#db.selectFrom('played_games').select('user_id').where('user_id', '=', userId).where('app_id', '=', appId).executeTakeFirst();
    if (played) return true;
    const ordered = await this.#db
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('preview', '=', 0)
      .executeTakeFirst();
    return ordered !== undefined;
  }

  async events(orderId: number): Promise<{ type: string; from_status: string | null; to_status: string }[]> {
    return this.#db.selectFrom('order_events').select(['type', 'from_status', 'to_status']).where('order_id', '=', orderId).orderBy('id').execute();
  }
}

async function isConsumable(trx: Transaction<Database>, itemId: number): Promise<boolean> {
  const item = await trx.selectFrom('app_items').select('kind').where('id', '=', itemId).executeTakeFirst();
  return item?.kind === 'consumable';
}

/** Adds to a user's inventory of an item in a mode (a paid order); the guest merge has its own sum. */
/**
 * The refund a change makes (decision 124): a paid order becoming refunded gives back what partial
 * refunds left, and a consumable's unit is taken back if the player still holds one (a used one
 * cannot be; the game's webhook says which). A partial refund of a paid order gives back the
 * stated amount, never more than is left, and takes nothing back. Anything else refunds nothing.
 */
async function refundOf(
  trx: Transaction<Database>,
  order: OrderRow,
  status: OrderStatus,
  stated: { amount: number | null; reason: string | null } | null,
  now: string,
): Promise<AppliedRefund | null> {
  const left = order.amount_minor - order.refunded_minor;
  if (order.status === 'paid' && status === 'refunded') {
    let itemsTakenBack = 0;
    if (order.credited_at !== null) {
      const column = order.preview === 1 ? 'preview_quantity' : 'quantity';
      const taken = await trx
        .updateTable('inventory')
        .set({ [column]: sql<number>`${sql.ref(`inventory.${column}`)} - 1`, updated_at: now })
        .where('user_id', '=', order.user_id)
        .where('item_id', '=', order.item_id)
        .where(column, '>=', 1)
        .executeTakeFirst();
      itemsTakenBack = Number(taken.numUpdatedRows);
    }
    return { amount: left, reason: stated?.reason ?? null, at: now, itemsTakenBack, partial: false };
  }
  if (order.status === 'paid' && status === 'paid' && stated?.amount != null && stated.amount > 0 && left > 0)
    return { amount: Math.min(stated.amount, left), reason: stated.reason, at: now, itemsTakenBack: 0, partial: true };
  return null;
}

async function addToInventory(
  trx: Transaction<Database>,
  userId: number,
  itemId: number,
  appId: number,
  quantity: number,
  mode: Mode,
  now: string,
): Promise<void> {
  const column = mode === 'test' ? 'preview_quantity' : 'quantity';
  await trx
    .insertInto('inventory')
    .values({ user_id: userId, item_id: itemId, app_id: appId, quantity: 0, preview_quantity: 0, [column]: quantity, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['user_id', 'item_id']).doUpdateSet({ [column]: sql<number>`${sql.ref(`inventory.${column}`)} + ${quantity}`, updated_at: now }),
    )
    .execute();
}
