import type { ConsolePayout, PayoutDetails, PayoutDetailsBody, StudioPayout } from '#common/api/payouts.schema.ts';
import { currencyExponent } from '#common/money.ts';
import { type PayoutProvider, PayoutRefused } from '#server/adapters/payouts/payout-provider.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { PeriodicWork } from '#server/lib/periodic-work.ts';
import { randomAlphanumeric } from '#server/lib/random.ts';
import { SecretBox } from '#server/lib/secret-box.ts';
import type { AuditLogService } from '../console/audit-log.service.ts';
import type { OperatorsService } from '../console/operators.service.ts';
import type { DevelopersService } from '../studio/developers.service.ts';
import { payoutPosting } from './ledger.ts';
import type { LedgerRepository } from './ledger.repository.ts';
import type { PayoutRow, PayoutsRepository, PayoutStatus } from './payouts.repository.ts';

/** Waits after the 1st, 2nd, … failed send or unanswered status check; the last one repeats. */
export const RETRY_DELAYS_MINUTES = [1, 5, 30, 120, 360, 720] as const;
/** How long a paid payout is still read back, for a return (PayPal returns unclaimed money after 30 days). */
export const RETURN_WATCH_DAYS = 45;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** How long one worker holds a claimed payout: well past one call's time-outs. */
const CLAIM_SECONDS = 120;
const BATCH = 20;
const CONSOLE_LIMIT = 200;

export interface PayoutsDependencies {
  repository: PayoutsRepository;
  ledger: LedgerRepository;
  /** null when payouts are off. */
  provider: PayoutProvider | null;
  operators: Pick<OperatorsService, 'requireOperator'>;
  developers: Pick<DevelopersService, 'requireDeveloper' | 'profile'>;
  auditLog: Pick<AuditLogService, 'record'>;
  clock: Clock;
  appSecret: string;
  previousSecrets: readonly string[];
  /** The smallest available balance proposed, in major units. */
  minimumMajor: number;
}

/** `YYYY-MM` of the month before the one `now` is in (UTC): the last month that ended. */
export function lastEndedMonth(now: Date): string {
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return month.toISOString().slice(0, 7);
}

const newPublicId = () => `po_${randomAlphanumeric(20)}`;
const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();
const retryDelayMs = (attempts: number) => RETRY_DELAYS_MINUTES[Math.min(Math.max(attempts - 1, 0), RETRY_DELAYS_MINUTES.length - 1)]! * MINUTE_MS;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Studios' payouts (decision 149). A studio says where it is paid (the tax id sealed under
 * APP_SECRET); after each month a payout of its available balance is proposed once per currency;
 * an operator approves it, which moves the amount into transit in the ledger in the same
 * transaction, or rejects it; a worker sends approved payouts through the provider, keyed by the
 * payout's public id so that no attempt pays twice, then reads back whether each was paid, failed
 * or returned and posts that once (source keys `payout:<id>:<step>`).
 */
export class PayoutsService {
  readonly #deps: PayoutsDependencies;
  readonly #taxIds: SecretBox;
  readonly #rounds = new PeriodicWork(() => this.work());

  constructor(deps: PayoutsDependencies) {
    this.#deps = deps;
    this.#taxIds = new SecretBox(deps.appSecret, deps.previousSecrets, 'payout-tax-id');
  }

  get #methods() {
    return this.#deps.provider ? [this.#deps.provider.method] : [];
  }

  #minimumMinor(currency: string): number {
    return Math.round(this.#deps.minimumMajor * 10 ** currencyExponent(currency));
  }

  // The Studio's side.

  async details(caller: Caller | null): Promise<PayoutDetails> {
    const studio = await this.#deps.developers.requireDeveloper(caller);
    const account = await this.#deps.repository.account(studio);
    const taxId = account?.tax_id_sealed ? (this.#taxIds.open(account.tax_id_sealed, `payout-account:${studio}`)?.plain ?? null) : null;
    return {
      details: account
        ? {
            method: account.method as 'paypal' | 'stand-in',
            receiver: account.receiver,
            legalName: account.legal_name,
            country: account.country,
            taxIdLast4: taxId === null ? null : taxId.slice(-4),
            updatedAt: account.updated_at,
          }
        : null,
      methods: this.#methods,
      minimum: this.#deps.minimumMajor,
    };
  }

  /**
   * Saves where the studio is paid. Its proposals waiting for an operator are proposed again under
   * new ids (an approval of what the operator saw before finds nothing); refused while a payout is
   * approved and not yet sent, so that what was approved is what is sent. The audit log names the
   * fields that changed, never their values.
   */
  async saveDetails(caller: Caller | null, body: PayoutDetailsBody): Promise<PayoutDetails> {
    const studio = await this.#deps.developers.requireDeveloper(caller);
    if (!(this.#methods as string[]).includes(body.method)) throw fieldError({ method: ['studio:payouts.errors.method'] });
    const now = isoNow(this.#deps.clock);
    const sealed = body.taxId ? this.#taxIds.seal(body.taxId, `payout-account:${studio}`) : null;
    await this.#deps.repository.transaction(async (unit) => {
      const existing = await this.#deps.repository.account(studio, unit);
      if (await this.#deps.repository.hasApproved(studio, unit)) throw new AppError('conflict', { messageKey: 'studio:payouts.errors.onItsWay' });
      const taxIdSealed = body.taxId === undefined ? (existing?.tax_id_sealed ?? null) : sealed;
      const row = {
        studio_user_id: studio,
        method: body.method,
        receiver: body.receiver,
        legal_name: body.legalName,
        country: body.country,
        tax_id_sealed: taxIdSealed,
        updated_at: now,
      };
      const changed = existing
        ? (['method', 'receiver', 'legal_name', 'country', 'tax_id_sealed'] as const).filter((field) =>
            field === 'tax_id_sealed' ? body.taxId !== undefined : existing[field] !== row[field],
          )
        : ['created'];
      await this.#deps.repository.saveAccount(row, unit);
      const reproposed: { from: string; to: string }[] = [];
      for (const payout of await this.#deps.repository.proposedOf(studio, unit)) {
        const to = newPublicId();
        await this.#deps.repository.repropose(payout.id, to, body.method, now, unit);
        reproposed.push({ from: payout.public_id, to });
      }
      await this.#deps.auditLog.record(
        { operatorUserId: studio, action: 'payout_details.change', target: { type: 'member', id: studio }, detail: { changed, reproposed } },
        unit,
      );
    });
    return this.details(caller);
  }

  async studioPayouts(caller: Caller | null): Promise<{ items: StudioPayout[] }> {
    const studio = await this.#deps.developers.requireDeveloper(caller);
    const rows = await this.#deps.repository.list({ studioUserId: studio, limit: CONSOLE_LIMIT });
    return { items: rows.map(toPayout) };
  }

  // The Console's side.

  async forOperator(caller: Caller | null, status: PayoutStatus | undefined): Promise<{ items: ConsolePayout[] }> {
    await this.#deps.operators.requireOperator(caller);
    const rows = await this.#deps.repository.list({ ...(status ? { status } : {}), limit: CONSOLE_LIMIT });
    const studios = [...new Set(rows.map((row) => row.studio_user_id))];
    const known = new Map(
      await Promise.all(
        studios.map(
          async (id) =>
            [
              id,
              { name: (await this.#deps.developers.profile(id))?.studioName ?? null, hasDetails: (await this.#deps.repository.account(id)) !== undefined },
            ] as const,
        ),
      ),
    );
    return {
      items: rows.map((row) => ({
        ...toPayout(row),
        studio: { id: row.studio_user_id, name: known.get(row.studio_user_id)?.name ?? null },
        attempts: row.attempts,
        hasDetails: known.get(row.studio_user_id)?.hasDetails ?? false,
      })),
    };
  }

  /**
   * Approves a proposal: the amount (what was proposed, or less when less is available now) leaves
   * the studio's balance for transit in the ledger, in the transaction of the status change and the
   * audit entry. The worker sends it. 404 for an unknown payout, 409 when it is not proposed any
   * more, the studio has no payout details, or nothing is available.
   */
  async approve(caller: Caller | null, publicId: string, reason: string): Promise<ConsolePayout> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    const now = isoNow(this.#deps.clock);
    await this.#deps.repository.transaction(async (unit) => {
      // The status changes first, which locks the row: a second approval waits, then finds it approved.
      const payout = await this.#decide(publicId, { status: 'approved', operatorUserId, now }, unit);
      if (!(await this.#deps.repository.account(payout.studio_user_id, unit)))
        throw new AppError('conflict', { messageKey: 'console:payouts.errors.noDetails' });
      const balance = (await this.#deps.ledger.balances(payout.studio_user_id, now, unit)).find((b) => b.currency === payout.currency);
      const amount = Math.min(payout.amount_minor, balance?.available ?? 0);
      if (amount <= 0) throw new AppError('conflict', { messageKey: 'console:payouts.errors.nothingAvailable' });
      if (amount !== payout.amount_minor) await this.#deps.repository.setAmount(payout.id, amount, unit);
      await this.#post(payout, 'payout', amount, now, unit);
      await this.#deps.auditLog.record(
        {
          operatorUserId,
          action: 'payout.approve',
          target: { type: 'payout', id: publicId },
          detail: { reason, currency: payout.currency, proposed: payout.amount_minor, amount },
        },
        unit,
      );
    });
    return this.#consoleView(publicId);
  }

  async reject(caller: Caller | null, publicId: string, reason: string): Promise<ConsolePayout> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    const now = isoNow(this.#deps.clock);
    await this.#deps.repository.transaction(async (unit) => {
      await this.#decide(publicId, { status: 'rejected', reason, now }, unit);
      await this.#deps.auditLog.record({ operatorUserId, action: 'payout.reject', target: { type: 'payout', id: publicId }, detail: { reason } }, unit);
    });
    return this.#consoleView(publicId);
  }

  /** An operator's run of the month's proposals (the worker runs them too), with the reason in the audit log. */
  async proposeForOperator(caller: Caller | null, reason: string): Promise<{ proposed: number; month: string }> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    const result = await this.proposePayouts(this.#deps.clock.now());
    await this.#deps.auditLog.record({
      operatorUserId,
      action: 'payouts.propose',
      target: { type: 'payout', id: result.month },
      detail: { reason, ...result },
    });
    return result;
  }

  /** Moves the proposal on; 404 for an unknown payout, 409 for one no longer proposed. Answers it as it was. */
  async #decide(publicId: string, decision: Parameters<PayoutsRepository['decide']>[1], unit: UnitOfWork): Promise<PayoutRow> {
    const moved = await this.#deps.repository.decide(publicId, decision, unit);
    const payout = await this.#deps.repository.byPublicId(publicId, unit);
    if (!payout) throw new AppError('not_found');
    if (!moved) throw notProposed();
    return payout;
  }

  async #consoleView(publicId: string): Promise<ConsolePayout> {
    const row = await this.#deps.repository.byPublicId(publicId);
    if (!row) throw new AppError('not_found');
    const profile = await this.#deps.developers.profile(row.studio_user_id);
    const account = await this.#deps.repository.account(row.studio_user_id);
    return {
      ...toPayout(row),
      studio: { id: row.studio_user_id, name: profile?.studioName ?? null },
      attempts: row.attempts,
      hasDetails: account !== undefined,
    };
  }

  // The worker's side.

  /**
   * Proposes, for the month that ended last before `now`, a payout of each studio's available
   * balance in each currency that reaches PAYOUT_MINIMUM, once per studio, currency and month
   * (the database's unique key: two instances at once propose one). A newer proposal ends the
   * studio's older ones nobody approved, since it holds their money too.
   */
  async proposePayouts(now: Date): Promise<{ proposed: number; month: string }> {
    const month = lastEndedMonth(now);
    const provider = this.#deps.provider;
    if (!provider) return { proposed: 0, month };
    const at = now.toISOString();
    let proposed = 0;
    for (const studio of await this.#deps.repository.studiosWithAccounts()) {
      for (const balance of await this.#deps.ledger.balances(studio, at)) {
        if (balance.available < this.#minimumMinor(balance.currency)) continue;
        const account = await this.#deps.repository.account(studio);
        if (!account) continue;
        // Writes first: on SQLite a transaction that read before it writes cannot wait for another's lock.
        const made = await this.#deps.repository.transaction(async (unit) => {
          const created = await this.#deps.repository.propose(
            { publicId: newPublicId(), studioUserId: studio, currency: balance.currency, amount: balance.available, method: account.method, month, now: at },
            unit,
          );
          if (created) await this.#deps.repository.supersede(studio, balance.currency, month, at, unit);
          return created;
        });
        if (made) proposed += 1;
      }
    }
    return { proposed, month };
  }

  /** Sends the approved payouts that are due; answers how many were tried. */
  async sendDue(now: Date): Promise<number> {
    const provider = this.#deps.provider;
    if (!provider) return 0;
    const claimUntil = later(now, CLAIM_SECONDS * 1000);
    const rows = await this.#deps.repository.claimDue('approved', now.toISOString(), claimUntil, BATCH);
    for (const row of rows) {
      const claim = { id: row.id, from: 'approved' as const, claimUntil };
      const account = await this.#deps.repository.account(row.studio_user_id);
      // A first attempt reached no provider yet: details gone or changed since the approval end it
      // here. A later one may have reached it, and the provider answers the transfer it made.
      const firstAttempt = row.attempts === 1;
      if (!account) {
        await this.#fail(row, claim, 'NO_PAYOUT_DETAILS', now);
        continue;
      }
      if (firstAttempt && (account.updated_at > (row.approved_at ?? '') || account.method !== provider.method)) {
        await this.#fail(row, claim, account.method === provider.method ? 'DETAILS_CHANGED_AFTER_APPROVAL' : 'METHOD_UNAVAILABLE', now);
        continue;
      }
      try {
        const { reference } = await provider.send({ key: row.public_id, amountMinor: row.amount_minor, currency: row.currency, receiver: account.receiver });
        const sentAt = this.#deps.clock.now();
        await this.#deps.repository.settle(claim, {
          status: 'sent',
          sentAt: sentAt.toISOString(),
          reference,
          failure: null,
          attempts: 0,
          nextAttemptAt: later(sentAt, retryDelayMs(1)),
          now: sentAt.toISOString(),
        });
      } catch (error) {
        if (error instanceof PayoutRefused) await this.#fail(row, claim, error.reason, now);
        else await this.#retryLater(row, claim, error);
      }
    }
    return rows.length;
  }

  /** Reads back the sent payouts, and the paid ones still watched for a return, that are due. */
  async checkDue(now: Date): Promise<number> {
    const provider = this.#deps.provider;
    if (!provider) return 0;
    const claimUntil = later(now, CLAIM_SECONDS * 1000);
    let checked = 0;
    for (const from of ['sent', 'paid'] as const) {
      const rows = await this.#deps.repository.claimDue(from, now.toISOString(), claimUntil, BATCH);
      checked += rows.length;
      for (const row of rows) {
        const claim = { id: row.id, from, claimUntil };
        let state;
        try {
          state = await provider.status(row.provider_reference ?? '');
        } catch (error) {
          await this.#retryLater(row, claim, error);
          continue;
        }
        const at = this.#deps.clock.now();
        const iso = at.toISOString();
        if (from === 'sent' && state.state === 'paid') {
          await this.#settle(row, claim, { status: 'paid', settledAt: iso, attempts: 0, nextAttemptAt: later(at, DAY_MS), now: iso }, ['payout-sent'], iso);
        } else if (from === 'sent' && state.state === 'failed') {
          await this.#settle(row, claim, { status: 'failed', failure: state.reason, settledAt: iso, nextAttemptAt: null, now: iso }, ['payout-failed'], iso);
        } else if (state.state === 'returned' || (from === 'paid' && state.state === 'failed')) {
          // Returned without ever being seen paid: it was paid out, then came back.
          const steps = from === 'sent' ? (['payout-sent', 'payout-returned'] as const) : (['payout-returned'] as const);
          await this.#settle(
            row,
            claim,
            { status: 'returned', failure: state.reason, settledAt: row.settled_at ?? iso, nextAttemptAt: null, now: iso },
            [...steps],
            iso,
          );
        } else if (from === 'paid') {
          const watchedUntil = Date.parse(row.settled_at ?? iso) + RETURN_WATCH_DAYS * DAY_MS;
          await this.#deps.repository.settle(claim, { nextAttemptAt: at.getTime() > watchedUntil ? null : later(at, DAY_MS), now: iso });
        } else {
          await this.#deps.repository.settle(claim, { nextAttemptAt: later(at, retryDelayMs(row.attempts)), now: iso });
        }
      }
    }
    return checked;
  }

  /** One round of the worker: the month's proposals, then sending, then reading back. */
  async work(now: Date = this.#deps.clock.now()): Promise<void> {
    await this.proposePayouts(now);
    await this.sendDue(now);
    await this.checkDue(this.#deps.clock.now());
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    if (this.#deps.provider) this.#rounds.start(intervalMs, onError);
  }

  stop(): Promise<void> {
    return this.#rounds.stop();
  }

  async #fail(row: PayoutRow, claim: { id: number; from: PayoutStatus; claimUntil: string }, reason: string, now: Date): Promise<void> {
    const iso = now.toISOString();
    await this.#settle(row, claim, { status: 'failed', failure: reason, settledAt: iso, nextAttemptAt: null, now: iso }, ['payout-failed'], iso);
  }

  async #retryLater(row: PayoutRow, claim: { id: number; from: PayoutStatus; claimUntil: string }, error: unknown): Promise<void> {
    const at = this.#deps.clock.now();
    await this.#deps.repository.settle(claim, { failure: messageOf(error), nextAttemptAt: later(at, retryDelayMs(row.attempts)), now: at.toISOString() });
  }

  /** The state change and its ledger entries commit together, only while the claim is ours. */
  async #settle(
    row: PayoutRow,
    claim: { id: number; from: PayoutStatus; claimUntil: string },
    fields: Parameters<PayoutsRepository['settle']>[1],
    steps: ('payout-sent' | 'payout-failed' | 'payout-returned')[],
    postedAt: string,
  ): Promise<void> {
    await this.#deps.repository.transaction(async (unit) => {
      if (!(await this.#deps.repository.settle(claim, fields, unit))) return;
      for (const step of steps) await this.#post(row, step, row.amount_minor, postedAt, unit);
    });
  }

  async #post(
    payout: PayoutRow,
    kind: 'payout' | 'payout-sent' | 'payout-failed' | 'payout-returned',
    amount: number,
    postedAt: string,
    unit: UnitOfWork,
  ): Promise<void> {
    await this.#deps.ledger.post(
      payoutPosting(kind, amount),
      {
        sourceKey: `payout:${payout.id}:${kind}`,
        currency: payout.currency,
        studioUserId: payout.studio_user_id,
        payoutId: payout.id,
        note: payout.public_id,
        postedAt,
        heldUntil: postedAt,
      },
      unit,
    );
  }
}

const notProposed = () => new AppError('conflict', { messageKey: 'console:payouts.errors.notProposed' });

function toPayout(row: PayoutRow): StudioPayout {
  return {
    id: row.public_id,
    month: row.month,
    currency: row.currency,
    amountMinor: row.amount_minor,
    status: row.status as StudioPayout['status'],
    method: row.method,
    proposedAt: row.proposed_at,
    approvedAt: row.approved_at,
    sentAt: row.sent_at,
    settledAt: row.settled_at,
    failure: row.failure,
  };
}
