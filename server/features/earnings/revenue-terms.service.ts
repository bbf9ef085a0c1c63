import type { LedgerCorrection, LedgerCorrectionBody, SetRevenueTermsBody, StudioRevenueTerms } from '#common/api/earnings-console.schema.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { AuditLogService } from '../console/audit-log.service.ts';
import type { OperatorsService } from '../console/operators.service.ts';
import type { DevelopersService } from '../studio/developers.service.ts';
import { WHOLE_BP } from './ledger.ts';
import type { LedgerService } from './ledger.service.ts';

/** How far ahead terms may start: a typo in the year should not schedule terms for 2206. */
const MAX_AHEAD_MS = 5 * 366 * 86_400_000;

const percentOf = (bp: number) => (bp * 100) / WHOLE_BP;

/**
 * Studios' revenue terms in the Console (decision 149): an operator reads a studio's terms and
 * sets new ones from a start, with a reason in the audit log. A start cannot be in the past: an
 * order keeps the share in force when it was paid (its refunds too), so terms dated back would
 * re-split nothing and only make the history say what never applied. A start earlier today means
 * from now on.
 */
export class RevenueTermsService {
  readonly #ledger: Pick<LedgerService, 'setTerms' | 'shareAt' | 'termsOf' | 'defaultShareBp' | 'transaction' | 'postCorrection'>;
  readonly #operators: Pick<OperatorsService, 'requireOperator'>;
  readonly #developers: Pick<DevelopersService, 'profile'>;
  readonly #auditLog: Pick<AuditLogService, 'record'>;
  readonly #clock: Clock;
  constructor(deps: {
    ledger: Pick<LedgerService, 'setTerms' | 'shareAt' | 'termsOf' | 'defaultShareBp' | 'transaction' | 'postCorrection'>;
    operators: Pick<OperatorsService, 'requireOperator'>;
    developers: Pick<DevelopersService, 'profile'>;
    auditLog: Pick<AuditLogService, 'record'>;
    clock: Clock;
  }) {
    this.#ledger = deps.ledger;
    this.#operators = deps.operators;
    this.#developers = deps.developers;
    this.#auditLog = deps.auditLog;
    this.#clock = deps.clock;
  }

  /** A member's terms; for a member without a studio profile, none (`studio` null), so the Console's member page asks for every member without a failed request. */
  async terms(caller: Caller | null, studioUserId: number): Promise<StudioRevenueTerms> {
    await this.#operators.requireOperator(caller);
    const profile = await this.#developers.profile(studioUserId);
    if (!profile) {
      const share = percentOf(this.#ledger.defaultShareBp);
      return { studio: null, defaultSharePercent: share, currentSharePercent: share, terms: [] };
    }
    return this.#termsOf(studioUserId, profile.studioName);
  }

  /** New terms from `startsAt`, recorded with the operator's reason in the audit log in one transaction. */
  async setTerms(caller: Caller | null, studioUserId: number, body: SetRevenueTermsBody): Promise<StudioRevenueTerms> {
    const operatorUserId = await this.#operators.requireOperator(caller);
    const studioName = await this.#studio(studioUserId);
    const now = isoNow(this.#clock);
    const requested = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(body.startsAt) ? `${body.startsAt}T00:00:00.000Z` : body.startsAt);
    const startOfToday = now.slice(0, 10) + 'T00:00:00.000Z';
    if (requested < Date.parse(startOfToday)) throw fieldError({ startsAt: ['console:earnings.errors.startsInPast'] });
    if (requested > Date.parse(now) + MAX_AHEAD_MS) throw fieldError({ startsAt: ['console:earnings.errors.startsTooLate'] });
    const startsAt = new Date(Math.max(requested, Date.parse(now))).toISOString();
    await this.#ledger.transaction(async (unit) => {
      await this.#ledger.setTerms({ studioUserId, sharePercent: body.sharePercent, startsAt, reason: body.reason, setBy: operatorUserId }, unit);
      await this.#auditLog.record(
        {
          operatorUserId,
          action: 'studio.revenue_terms',
          target: { type: 'member', id: studioUserId },
          detail: { reason: body.reason, sharePercent: body.sharePercent, startsAt },
        },
        unit,
      );
    });
    return this.#termsOf(studioUserId, studioName);
  }

  /**
   * A correction of a studio's balance (decision 149): a new ledger entry, studio against platform,
   * with the operator's reason on it and in the audit log, in one transaction; the same key posts it once.
   */
  async correct(caller: Caller | null, studioUserId: number, body: LedgerCorrectionBody): Promise<LedgerCorrection> {
    const operatorUserId = await this.#operators.requireOperator(caller);
    await this.#studio(studioUserId);
    const now = isoNow(this.#clock);
    const posted = await this.#ledger.transaction(async (unit) => {
      const fresh = await this.#ledger.postCorrection(
        { studioUserId, amount: body.amount, currency: body.currency, reason: body.reason, key: body.idempotencyKey, now },
        unit,
      );
      if (fresh)
        await this.#auditLog.record(
          {
            operatorUserId,
            action: 'studio.ledger_correction',
            target: { type: 'member', id: studioUserId },
            detail: { reason: body.reason, amount: body.amount, currency: body.currency },
          },
          unit,
        );
      return fresh;
    });
    return { posted, amount: body.amount, currency: body.currency, postedAt: now };
  }

  /** The studio's name; 404 for a member without a studio profile, as for no member at all: terms are a studio's. */
  async #studio(userId: number): Promise<string> {
    const profile = await this.#developers.profile(userId);
    if (!profile) throw new AppError('not_found', { messageKey: 'console:earnings.errors.notAStudio' });
    return profile.studioName;
  }

  async #termsOf(studioUserId: number, studioName: string): Promise<StudioRevenueTerms> {
    const [rows, current] = await Promise.all([this.#ledger.termsOf(studioUserId), this.#ledger.shareAt(studioUserId, isoNow(this.#clock))]);
    return {
      studio: { userId: studioUserId, studioName },
      defaultSharePercent: percentOf(this.#ledger.defaultShareBp),
      currentSharePercent: percentOf(current),
      terms: rows.map((r) => ({ sharePercent: percentOf(r.share_bp), startsAt: r.starts_at, reason: r.reason, createdAt: r.created_at })),
    };
  }
}
