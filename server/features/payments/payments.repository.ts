import { type Kysely, type Selectable, sql } from 'kysely';
import type { Locale } from '#common/locales.ts';
import type { DatabaseKind } from '#server/db/client.ts';
import type { Database, ItemKind, OrdersTable, OrderStatus } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';
import type { Mode } from '#server/lib/preview-access.ts';

export type OrderRow = Selectable<OrdersTable>;

/** The columns of an order the buyer's request decides; the rest start empty. */
export type NewOrder = Omit<
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
> & { preview?: number };

/** The columns an order change writes. */
export type OrderUpdate = Partial<
  Pick<OrderRow, 'status' | 'updated_at' | 'paid_at' | 'provider_transaction_id' | 'credited_at' | 'refunded_minor' | 'refunded_at'>
>;

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

  /** Runs `work` in one transaction: every repository call given its unit of work commits with the others, or none does. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** The consumption a user's idempotency key made, if any (decision 091). */
  consumption(userId: number, key: string): Promise<{ item_id: number; quantity: number; remaining: number; preview: number } | undefined> {
    return this.#db
      .selectFrom('item_consumptions')
      .select(['item_id', 'quantity', 'remaining', 'preview'])
      .where('item_consumptions.user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  /**
   * Claims the user's idempotency key for a consumption by inserting it: a second request with it
   * at once waits on the unique index on PostgreSQL (SQLite writes one at a time) and then fails.
   */
  async claimConsumption(userId: number, itemId: number, quantity: number, key: string, mode: Mode, now: string, unit: UnitOfWork): Promise<number> {
    const claim = await executorOf(this.#db, unit)
      .insertInto('item_consumptions')
      .values({ user_id: userId, item_id: itemId, idempotency_key: key, quantity, remaining: 0, created_at: now, preview: previewFlag(mode) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return claim.id;
  }

  /** Lowers the user's inventory of an item in a mode by `quantity` only where it holds enough: what is left, or undefined. */
  async lowerInventory(userId: number, itemId: number, quantity: number, mode: Mode, now: string, unit?: UnitOfWork): Promise<number | undefined> {
    const column = mode === 'test' ? 'preview_quantity' : 'quantity';
    const lowered = await executorOf(this.#db, unit)
      .updateTable('inventory')
      .set({ [column]: sql<number>`${sql.ref(`inventory.${column}`)} - ${quantity}`, updated_at: now })
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .where(column, '>=', quantity)
      .returning(`${column} as quantity`)
      .executeTakeFirst();
    return lowered?.quantity;
  }

  /** How many of an item the user holds in a mode. */
  async held(userId: number, itemId: number, mode: Mode, unit?: UnitOfWork): Promise<number> {
    const column = mode === 'test' ? 'preview_quantity' : 'quantity';
    const row = await executorOf(this.#db, unit)
      .selectFrom('inventory')
      .select(`${column} as quantity`)
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    return row?.quantity ?? 0;
  }

  async setConsumptionRemaining(consumptionId: number, remaining: number, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).updateTable('item_consumptions').set({ remaining }).where('id', '=', consumptionId).execute();
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

  /** The order this user's idempotency key made, if any. */
  orderByKey(userId: number, key: string): Promise<OrderRow | undefined> {
    return this.#db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('idempotency_key', '=', key).executeTakeFirst();
  }

  /** Locks the buyer's row until the unit of work ends (PostgreSQL; SQLite writes one at a time). */
  async lockBuyer(userId: number, unit: UnitOfWork): Promise<void> {
    const lock = executorOf(this.#db, unit).selectFrom('users').select('id').where('id', '=', userId);
    await (this.#kind === 'postgres' ? lock.forUpdate() : lock).executeTakeFirst();
  }

  /** The user's paid or still open orders of an item in a mode (decision 111), the newest first. */
  heldOrders(userId: number, itemId: number, preview: number, unit: UnitOfWork): Promise<OrderRow[]> {
    return executorOf(this.#db, unit)
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .where('status', 'in', ['paid', 'created', 'pending'])
      .where('preview', '=', preview)
      .orderBy('id', 'desc')
      .execute();
  }

  /** A new order with its `created` event; the unique (user, key) index refuses a second one with the same key. */
  async insertOrder(order: NewOrder, unit: UnitOfWork): Promise<OrderRow> {
    const db = executorOf(this.#db, unit);
    const row = await db
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
    await db
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

  /** An order, its row locked until the unit of work ends (PostgreSQL; SQLite writes one at a time). */
  lockOrder(orderId: number, unit: UnitOfWork): Promise<OrderRow> {
    const query = executorOf(this.#db, unit).selectFrom('orders').selectAll().where('id', '=', orderId);
    return (this.#kind === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
  }

  /** Whether an event with this key is recorded for the order. */
  async eventRecorded(orderId: number, eventKey: string, unit: UnitOfWork): Promise<boolean> {
    const seen = await executorOf(this.#db, unit)
      .selectFrom('order_events')
      .select('id')
      .where('order_id', '=', orderId)
      .where('event_key', '=', eventKey)
      .executeTakeFirst();
    return seen !== undefined;
  }

  async itemKind(itemId: number, unit: UnitOfWork): Promise<ItemKind | undefined> {
    return (await executorOf(this.#db, unit).selectFrom('app_items').select('kind').where('id', '=', itemId).executeTakeFirst())?.kind;
  }

  /** Adds to a user's inventory of an item in a mode (a paid order); the guest merge has its own sum. */
  async addToInventory(userId: number, itemId: number, appId: number, quantity: number, mode: Mode, now: string, unit: UnitOfWork): Promise<void> {
    const column = mode === 'test' ? 'preview_quantity' : 'quantity';
    await executorOf(this.#db, unit)
      .insertInto('inventory')
      .values({ user_id: userId, item_id: itemId, app_id: appId, quantity: 0, preview_quantity: 0, [column]: quantity, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['user_id', 'item_id']).doUpdateSet({ [column]: sql<number>`${sql.ref(`inventory.${column}`)} + ${quantity}`, updated_at: now }),
      )
      .execute();
  }

  /** Takes one unit of an item back from a user's inventory in a mode if one is held: 1 when it did, else 0. */
  async takeBackOne(userId: number, itemId: number, mode: Mode, now: string, unit: UnitOfWork): Promise<number> {
    const column = mode === 'test' ? 'preview_quantity' : 'quantity';
    const taken = await executorOf(this.#db, unit)
      .updateTable('inventory')
      .set({ [column]: sql<number>`${sql.ref(`inventory.${column}`)} - 1`, updated_at: now })
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .where(column, '>=', 1)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows);
  }

  /** Appends an order's event; its id. */
  async recordEvent(
    event: { orderId: number; type: string; eventKey: string; from: OrderStatus | null; to: OrderStatus; payload: string | null; now: string },
    unit: UnitOfWork,
  ): Promise<number> {
    const row = await executorOf(this.#db, unit)
      .insertInto('order_events')
      .values({
        order_id: event.orderId,
        type: event.type,
        event_key: event.eventKey,
        from_status: event.from,
        to_status: event.to,
        payload: event.payload,
        created_at: event.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Writes an order's changed columns; the order as it now is. */
  updateOrder(orderId: number, changes: OrderUpdate, unit: UnitOfWork): Promise<OrderRow> {
    return executorOf(this.#db, unit).updateTable('orders').set(changes).where('id', '=', orderId).returningAll().executeTakeFirstOrThrow();
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

  /**
   * A guest's orders, holdings and consumptions, moved to a member in the guest merge's unit of
   * work (decision 137). Orders are never deleted (decision 064) and their rows would block the
   * guest's deletion, so they move; buying needs a member account, so a guest holds none today and
   * the move keeps the merge whole should that change. A key the member already used gets the
   * order's id appended: keys only recognise a retried checkout request. A consumable both hold:
   * the quantities add up (decision 091), items taken in app order so merges of two guests into one
   * member lock its rows in the same order (no deadlock on PostgreSQL). The guest's consumptions
   * stay answerable by their keys (a game retrying a consume after the sign-in takes nothing
   * twice); a key the member used already keeps the member's.
   */
  /**
   * Erases what payments hold of a member (decision 147): items held and used go; orders stay for
   * the accounts, pseudonymised: the campaign goes and the provider's notifications (which may
   * carry the payer's name or address) are emptied; states, amounts and dates stay.
   */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('item_consumptions').where('user_id', '=', userId).execute();
    await db.deleteFrom('inventory').where('user_id', '=', userId).execute();
    await db
      .updateTable('order_events')
      .set({ payload: null })
      .where('order_id', 'in', db.selectFrom('orders').select('orders.id').where('orders.user_id', '=', userId))
      .execute();
    await db.updateTable('orders').set({ campaign: null }).where('user_id', '=', userId).execute();
  }

  async moveGuestRows(guestId: number, memberId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db
      .updateTable('orders')
      .set({ user_id: memberId, idempotency_key: sql<string>`orders.idempotency_key || ':' || CAST(orders.id AS TEXT)` })
      .where('user_id', '=', guestId)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('orders as own').select('own.id').where('own.user_id', '=', memberId).whereRef('own.idempotency_key', '=', 'orders.idempotency_key')),
      )
      .execute();
    await db.updateTable('orders').set({ user_id: memberId }).where('user_id', '=', guestId).execute();
    const held = await db.selectFrom('inventory').selectAll().where('user_id', '=', guestId).orderBy('app_id').orderBy('item_id').execute();
    for (const row of held) {
      await db
        .insertInto('inventory')
        .values({ ...row, user_id: memberId })
        .onConflict((oc) =>
          oc.columns(['user_id', 'item_id']).doUpdateSet({
            quantity: sql<number>`inventory.quantity + ${row.quantity}`,
            updated_at: sql<string>`CASE WHEN inventory.updated_at > ${row.updated_at} THEN inventory.updated_at ELSE ${row.updated_at} END`,
          }),
        )
        .execute();
    }
    await db
      .deleteFrom('item_consumptions')
      .where('user_id', '=', guestId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('item_consumptions as own')
            .select('own.id')
            .where('own.user_id', '=', memberId)
            .whereRef('own.idempotency_key', '=', 'item_consumptions.idempotency_key'),
        ),
      )
      .execute();
    await db.updateTable('item_consumptions').set({ user_id: memberId }).where('user_id', '=', guestId).execute();
  }

  async events(orderId: number): Promise<{ type: string; from_status: string | null; to_status: string }[]> {
    return this.#db.selectFrom('order_events').select(['type', 'from_status', 'to_status']).where('order_id', '=', orderId).orderBy('id').execute();
  }

  /** A member's orders, items held and items used, for "Download my data" (decision 144). */
  async personalDataOf(userId: number) {
    const [orders, items, consumptions] = await Promise.all([
      this.#db
        .selectFrom('orders')
        .select([
          'public_id',
          'app_id',
          'sku',
          'amount_minor',
          'currency',
          'status',
          'provider',
          'provider_order_id',
          'preview',
          'created_at',
          'paid_at',
          'delivered_at',
          'refunded_minor',
          'refunded_at',
        ])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      this.#db
        .selectFrom('inventory')
        .innerJoin('app_items', 'app_items.id', 'inventory.item_id')
        .select(['inventory.app_id', 'app_items.sku', 'inventory.quantity', 'inventory.preview_quantity', 'inventory.updated_at'])
        .where('inventory.user_id', '=', userId)
        .orderBy('inventory.app_id')
        .orderBy('app_items.sku')
        .execute(),
      this.#db
        .selectFrom('item_consumptions')
        .innerJoin('app_items', 'app_items.id', 'item_consumptions.item_id')
        .select(['app_items.app_id', 'app_items.sku', 'item_consumptions.quantity', 'item_consumptions.preview', 'item_consumptions.created_at'])
        .where('user_id', '=', userId)
        .orderBy('item_consumptions.created_at')
        .orderBy('item_consumptions.id')
        .execute(),
    ]);
    return { orders, items, consumptions };
  }
}
