import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { CheckoutService } from './checkout.service.ts';
import { ItemHoldingsService } from './item-holdings.service.ts';
import { OperatorOrdersService } from './operator-orders.service.ts';
import { OrderChangesService } from './order-changes.service.ts';
import type { PaymentsDependencies } from './payments-dependencies.ts';

export type { PaymentsDependencies, WebhookFaults } from './payments-dependencies.ts';

/**
 * Orders of in-game items and their payment (decision 064). Prices are the server's; every state
 * change is an event recorded once; a paid order reaches the game once. The one entry the routes
 * and other features use: each part of the feature answers its own calls.
 */
export class PaymentsService {
  readonly #holdings: ItemHoldingsService;
  readonly #checkout: CheckoutService;
  readonly #changes: OrderChangesService;
  readonly #operator: OperatorOrdersService;

  constructor(deps: PaymentsDependencies) {
    this.#changes = new OrderChangesService(deps);
    this.#holdings = new ItemHoldingsService(deps);
    this.#checkout = new CheckoutService(deps, this.#changes);
    this.#operator = new OperatorOrdersService(deps, this.#changes);
  }

  /** An app's items with their prices, and which of them the caller owns. */
  items(...args: Parameters<ItemHoldingsService['items']>) {
    return this.#holdings.items(...args);
  }

  /** The caller's consumables of an app (decision 091). */
  inventory(...args: Parameters<ItemHoldingsService['inventory']>) {
    return this.#holdings.inventory(...args);
  }

  /** What a player holds of a game, for the game's backend (decision 100). */
  playerHoldings(...args: Parameters<ItemHoldingsService['playerHoldings']>) {
    return this.#holdings.playerHoldings(...args);
  }

  /** An order of the game, for its backend to verify a purchase. */
  purchaseOf(...args: Parameters<ItemHoldingsService['purchaseOf']>) {
    return this.#holdings.purchaseOf(...args);
  }

  /** Uses up a quantity of one of the caller's consumables, once per idempotency key (decision 091). */
  consume(...args: Parameters<ItemHoldingsService['consume']>) {
    return this.#holdings.consume(...args);
  }

  /** Whether the user is a player of the live game (decision 111). */
  isPlayerOf(...args: Parameters<ItemHoldingsService['isPlayerOf']>) {
    return this.#holdings.isPlayerOf(...args);
  }

  /** An order for an item of the app, at the item's price; the same idempotency key answers the same order. */
  createOrder(...args: Parameters<CheckoutService['createOrder']>) {
    return this.#checkout.createOrder(...args);
  }

  /** Opens the provider's checkout for one of the caller's orders. */
  checkout(...args: Parameters<CheckoutService['checkout']>) {
    return this.#checkout.checkout(...args);
  }

  /** One of the caller's orders. */
  order(...args: Parameters<CheckoutService['order']>) {
    return this.#checkout.order(...args);
  }

  /** Hands a paid order to the game, once. */
  deliver(...args: Parameters<CheckoutService['deliver']>) {
    return this.#checkout.deliver(...args);
  }

  /** The guest merge's step for orders, consumables held and used (decision 137). */
  moveGuest(...args: Parameters<ItemHoldingsService['moveGuest']>) {
    return this.#holdings.moveGuest(...args);
  }

  /** The account erasure's step (decision 147): items held and used go; orders stay for the accounts, pseudonymised. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#holdings.eraseMember(member.id, unit);
  }

  /** The caller's orders. */
  list(...args: Parameters<CheckoutService['list']>) {
    return this.#checkout.list(...args);
  }

  /** The sandbox checkout page's order. */
  sandboxCheckout(...args: Parameters<CheckoutService['sandboxCheckout']>) {
    return this.#checkout.sandboxCheckout(...args);
  }

  /** The sandbox's card payment. */
  sandboxPay(...args: Parameters<CheckoutService['sandboxPay']>) {
    return this.#checkout.sandboxPay(...args);
  }

  /** One notification at the provider's webhook (decision 064), answered in the provider's format. */
  handleNotification(...args: Parameters<OrderChangesService['handleNotification']>) {
    return this.#changes.handleNotification(...args);
  }

  /** Orders an operator looks for (decision 098). */
  searchForOperator(...args: Parameters<OperatorOrdersService['searchForOperator']>) {
    return this.#operator.searchForOperator(...args);
  }

  /** One order with every event, for an operator. */
  orderForOperator(...args: Parameters<OperatorOrdersService['orderForOperator']>) {
    return this.#operator.orderForOperator(...args);
  }

  /** An operator's refund, full or partial (decisions 098 and 124). */
  refundForOperator(...args: Parameters<OperatorOrdersService['refundForOperator']>) {
    return this.#operator.refundForOperator(...args);
  }

  memberData(userId: number) {
    return this.#holdings.memberData(userId);
  }
}
