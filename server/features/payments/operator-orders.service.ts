import { randomUUID } from 'node:crypto';
import type { ConsoleOrderDetail, ConsoleOrderList } from '#common/api/console-ops.schema.ts';
import type { Locale } from '#common/locales.ts';
import { majorUnitsText } from '#common/money.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { PaymentProvider } from '#server/adapters/payments/payment-provider.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { requireProvider } from './payments-access.ts';
import type { PaymentsDependencies } from './payments-dependencies.ts';
import type { PaymentsRepository } from './payments.repository.ts';
import { NEXT_STATUS, type OrderChangesService } from './order-changes.service.ts';
import { payableOf, toConsoleOrder } from './order-views.ts';

/** Orders as operators see them in the Console, and their refunds (decision 098). */
export class OperatorOrdersService {
  readonly #repository: PaymentsRepository;
  readonly #clock: Clock;
  readonly #provider: PaymentProvider | null;
  readonly #changes: OrderChangesService;

  constructor(deps: Pick<PaymentsDependencies, 'repository' | 'clock' | 'provider'>, changes: OrderChangesService) {
    this.#repository = deps.repository;
    this.#clock = deps.clock;
    this.#provider = deps.provider;
    this.#changes = changes;
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
    const provider = requireProvider(this.#provider);
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
      await this.#changes.record(
        order.id,
        { type: 'operator_partial_refund', eventKey: `operator-partial-refund:${randomUUID()}`, next: (current) => current, payload: { reason, amount } },
        isoNow(this.#clock),
        undefined,
        (unit) => record(unit),
      );
      await this.#repository.releaseRefund(order.id);
      return answer(true);
    }
    await this.#changes.record(
      order.id,
      { type: 'operator_refund', eventKey: 'operator-refund', next: NEXT_STATUS.refunded, payload: { reason }, refund: { amount: null, reason } },
      isoNow(this.#clock),
      undefined,
      // The audit entry and the game's refunded webhook commit with the refund.
      async (unit, done) => {
        await record(unit);
        await this.#changes.queueWebhook(unit, done);
      },
    );
    return answer(true);
  }
}
