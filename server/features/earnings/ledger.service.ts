import type { EarningsConfig } from '#server/config/earnings.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { correctionPosting, feePosting, paymentPosting, refundPosting, WHOLE_BP } from './ledger.ts';
import type { LedgerRepository, StudioBalance } from './ledger.repository.ts';

/** An order's change as the ledger needs it, told by payments inside the change's unit of work. */
export interface OrderMoneyChange {
  order: { id: number; app_id: number; item_id: number; amount_minor: number; currency: string; preview: number };
  /** The change made the order paid. */
  paid: boolean;
  /** The order event that caused the change: the source of a refund's entry. */
  eventId: number;
  /** What the change gave back, in minor units, and whether the buyer's bank took it back (a chargeback). */
  refund: { amount: number; chargeback: boolean } | null;
  /** The provider's fee and withheld taxes the notification states for the payment, in the order's minor units; null when it states none. */
  deductions: number | null;
  now: string;
}

const DAY_MS = 86_400_000;

/**
 * Studios' money (decision 149): each paid order, provider fee, refund and chargeback posts
 * immutable lines in the change's own transaction, once (the source key is unique); the terms in
 * force when the order was paid split it, and its refunds reuse them.
 */
export class LedgerService {
  readonly #repository: LedgerRepository;
  readonly #config: EarningsConfig;
  readonly #clock: Clock;

  constructor(deps: { repository: LedgerRepository; config: EarningsConfig; clock: Clock }) {
    this.#repository = deps.repository;
    this.#config = deps.config;
    this.#clock = deps.clock;
  }

  get holdDays(): number {
    return this.#config.holdDays;
  }

  /** The studio's share in force at `at` (basis points): its own terms, else the default. */
  async shareAt(studioUserId: number, at: string, unit?: UnitOfWork): Promise<number> {
    return (await this.#repository.shareAt(studioUserId, at, unit)) ?? this.#config.defaultShareBp;
  }

  /** Posts what an order change means for the money. A test order (a build's preview) moves none. */
  async orderChanged(unit: UnitOfWork, change: OrderMoneyChange): Promise<void> {
    const { order, now } = change;
    if (order.preview === 1) return;
    const heldUntil = new Date(Date.parse(now) + this.#config.holdDays * DAY_MS).toISOString();
    const base = { currency: order.currency, orderId: order.id, appId: order.app_id, itemId: order.item_id, postedAt: now, heldUntil };
    if (change.paid) {
      const studioUserId = await this.#repository.studioOfApp(order.app_id, unit);
      const shareBp = studioUserId === null ? null : await this.shareAt(studioUserId, now, unit);
      await this.#repository.post(paymentPosting(order.amount_minor, shareBp), { ...base, sourceKey: `order:${order.id}:paid`, studioUserId, shareBp }, unit);
    }
    const payment = await this.#repository.paymentOf(order.id, unit);
    if (!payment) return;
    const context = { ...base, studioUserId: payment.studioUserId, shareBp: payment.shareBp };
    // The fee is known from the first notification stating it; the order pays it once.
    if (change.deductions !== null && change.deductions > 0)
      await this.#repository.post(
        feePosting(Math.min(change.deductions, payment.gross), payment.shareBp),
        { ...context, sourceKey: `order:${order.id}:fee` },
        unit,
      );
    if (change.refund && change.refund.amount > 0) {
      const before = await this.#repository.refundedOf(order.id, unit);
      const amount = Math.min(change.refund.amount, payment.gross - before);
      if (amount > 0)
        await this.#repository.post(
          refundPosting(change.refund.chargeback ? 'chargeback' : 'refund', amount, before, payment.gross, payment.shareBp),
          { ...context, sourceKey: `order-event:${change.eventId}` },
          unit,
        );
    }
  }

  /** Sets a studio's share from a date on (an operator in the Console); orders paid before keep theirs. */
  async setTerms(
    terms: { studioUserId: number; sharePercent: number; startsAt: string; reason: string; setBy: number | null },
    unit?: UnitOfWork,
  ): Promise<void> {
    await this.#repository.insertTerms(
      {
        studioUserId: terms.studioUserId,
        shareBp: Math.round((terms.sharePercent * WHOLE_BP) / 100),
        startsAt: terms.startsAt,
        reason: terms.reason,
        setBy: terms.setBy,
        now: isoNow(this.#clock),
      },
      unit,
    );
  }

  /** The default share (EARNINGS_STUDIO_SHARE_PERCENT), in basis points. */
  get defaultShareBp(): number {
    return this.#config.defaultShareBp;
  }

  /** A studio's terms, the latest start first. */
  termsOf(studioUserId: number) {
    return this.#repository.termsOf(studioUserId);
  }

  /**
   * An operator's correction of a studio's balance (decision 149), against the platform's, posted
   * once per key: a mistake is put right by a new entry, never by changing one.
   */
  postCorrection(
    correction: { studioUserId: number; amount: number; currency: string; reason: string; key: string; now: string },
    unit: UnitOfWork,
  ): Promise<boolean> {
    return this.#repository.post(
      correctionPosting(correction.amount),
      {
        sourceKey: `correction:${correction.studioUserId}:${correction.key}`,
        currency: correction.currency,
        studioUserId: correction.studioUserId,
        note: correction.reason,
        postedAt: correction.now,
        heldUntil: correction.now,
      },
      unit,
    );
  }

  /** Runs `work` in one transaction of the ledger's database. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return this.#repository.transaction(work);
  }

  /** An erased studio's part (decision 147): where it was paid goes; the ledger, statements and payouts stay, tied to the opaque id. */
  async eraseMember(member: { id: number }, unit: UnitOfWork): Promise<void> {
    await this.#repository.deletePayoutAccount(member.id, unit);
  }

  balances(studioUserId: number): Promise<StudioBalance[]> {
    return this.#repository.balances(studioUserId, isoNow(this.#clock));
  }
}
