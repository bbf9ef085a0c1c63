import type { AccountDeletionService } from '../accounts/account-deletion.service.ts';
import type {
  AcquisitionReport,
  AuditPage,
  ConsoleMemberDetail,
  ConsoleMemberSummary,
  ConsoleOrderDetail,
  ConsoleOrderList,
  ConsoleOverview,
  RefundResult,
} from '#common/api/console-ops.schema.ts';
import type { Locale } from '#common/locales.ts';
import { AppError, refusal } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { SignInFailuresService } from '../accounts/sign-in-failures.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { SocialService } from '../social/social.service.ts';
import type { BuildsService } from '../studio/builds.service.ts';
import type { GameChangesService } from '../studio/game-changes.service.ts';
import type { MemberDataService } from '../member-data/member-data.service.ts';
import type { AcquisitionService } from '../tracking/acquisition.service.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';
import type { AuditLogService } from './audit-log.service.ts';
import type { ConsoleMembersRepository, MemberRow } from './console-members.repository.ts';
import type { OperatorsService } from './operators.service.ts';

export interface ConsoleOpsDependencies {
  operators: Pick<OperatorsService, 'requireOperator'>;
  auditLog: Pick<AuditLogService, 'record' | 'page'>;
  payments: Pick<PaymentsService, 'searchForOperator' | 'orderForOperator' | 'refundForOperator'>;
  accounts: Pick<AccountsService, 'clearSignInLimits' | 'signInLocked' | 'setDisabled'>;
  social: Pick<SocialService, 'clearPhoneLimits'>;
  signInFailures: Pick<SignInFailuresService, 'recent'>;
  acquisition: AcquisitionService;
  members: ConsoleMembersRepository;
  /** What waits for review: builds, and changes of live games (decision 122). */
  reviews: { builds: Pick<BuildsService, 'waitingCount'>; changes: Pick<GameChangesService, 'waitingCount'> };
  memberData: Pick<MemberDataService, 'requestExportFor' | 'exportsOfMember' | 'pendingCount'>;
  twoFactor: Pick<TwoFactorService, 'required' | 'removeForOperator'>;
  accountDeletion: Pick<AccountDeletionService, 'cancelDeletion' | 'eraseNow'>;
  clock: Clock;
}

/** How many recent failures the Console shows, and reads to find the addresses a lock-out came from. */
const FAILURES_SHOWN = 20;

/**
 * The Console's operations (decision 098): orders and refunds, members (look-up, sign-in, lock-out,
 * disabling), the acquisition report and the audit log. Every call asks `requireOperator` first;
 * every change writes its audit entry in the transaction of the change.
 */
export class ConsoleOpsService {
  readonly #deps: ConsoleOpsDependencies;
  constructor(deps: ConsoleOpsDependencies) {
    this.#deps = deps;
  }

  async overview(caller: Caller | null): Promise<ConsoleOverview> {
    await this.#deps.operators.requireOperator(caller);
    const [counts, buildsWaiting, changesWaiting, dataExportsPending] = await Promise.all([
      this.#deps.members.counts(),
      this.#deps.reviews.builds.waitingCount(),
      this.#deps.reviews.changes.waitingCount(),
      this.#deps.memberData.pendingCount(),
    ]);
    return { buildsWaiting, changesWaiting, ...counts, dataExportsPending };
  }

  async orders(caller: Caller | null, query: string | undefined, locale: Locale): Promise<ConsoleOrderList> {
    await this.#deps.operators.requireOperator(caller);
    return this.#deps.payments.searchForOperator(query ?? null, locale);
  }

  async order(caller: Caller | null, orderId: string, locale: Locale): Promise<ConsoleOrderDetail> {
    await this.#deps.operators.requireOperator(caller);
    return this.#deps.payments.orderForOperator(orderId, locale);
  }

  /** Refunds a paid order through the provider, once, whole or in part, with the reason (and amount) in the audit log. */
  async refund(caller: Caller | null, orderId: string, reason: string, locale: Locale, amount?: number): Promise<RefundResult> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    return this.#deps.payments.refundForOperator(
      orderId,
      reason,
      (trx) =>
        this.#deps.auditLog.record(
          { operatorUserId, action: 'order.refund', target: { type: 'order', id: orderId }, detail: amount === undefined ? { reason } : { reason, amount } },
          trx,
        ),
      locale,
      amount,
    );
  }

  async findMembers(caller: Caller | null, query: string): Promise<{ items: ConsoleMemberSummary[] }> {
    await this.#deps.operators.requireOperator(caller);
    return { items: (await this.#deps.members.find(query, 20)).map(toSummary) };
  }

  async member(caller: Caller | null, userId: number): Promise<ConsoleMemberDetail> {
    await this.#deps.operators.requireOperator(caller);
    return this.#detail(await this.#member(userId));
  }

  /** Lifts the rate limits that hold the member's sign-in back. */
  async clearLockout(caller: Caller | null, userId: number): Promise<ConsoleMemberDetail> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    const member = await this.#member(userId);
    const failures = await this.#deps.signInFailures.recent(member, 200);
    const addresses = failures.map((failure) => failure.address);
    // The counters live in the database or in Redis, outside any transaction of ours: cleared
    // first, then the entry, so a failure never leaves an entry for a lock-out still in place.
    await this.#deps.accounts.clearSignInLimits(member, addresses);
    if (member.phone) await this.#deps.social.clearPhoneLimits(member.phone);
    await this.#deps.auditLog.record({
      operatorUserId,
      action: 'member.clear_lockout',
      target: { type: 'member', id: userId },
      detail: { addresses: new Set(addresses).size },
    });
    return this.#detail(member);
  }

  /** Disables the account: every session ends at once and every sign-in is refused until it is enabled. */
  async disable(caller: Caller | null, userId: number, reason: string): Promise<ConsoleMemberDetail> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    if (operatorUserId === userId) throw refusal('console_disable_self');
    await this.#member(userId);
    await this.#deps.accounts.setDisabled(userId, isoNow(this.#deps.clock), (trx) =>
      this.#deps.auditLog.record({ operatorUserId, action: 'member.disable', target: { type: 'member', id: userId }, detail: { reason } }, trx),
    );
    return this.#detail(await this.#member(userId));
  }

  async enable(caller: Caller | null, userId: number, reason: string): Promise<ConsoleMemberDetail> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    await this.#member(userId);
    await this.#deps.accounts.setDisabled(userId, null, (trx) =>
      this.#deps.auditLog.record({ operatorUserId, action: 'member.enable', target: { type: 'member', id: userId }, detail: { reason } }, trx),
    );
    return this.#detail(await this.#member(userId));
  }

  /** Prepares an archive of the member's data on their request (by mail or phone); the reason goes to the audit log. */
  async requestDataExport(caller: Caller | null, userId: number, reason: string): Promise<ConsoleMemberDetail> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    await this.#member(userId);
    await this.#deps.memberData.requestExportFor(userId, operatorUserId, (unit, exportId) =>
      this.#deps.auditLog.record({ operatorUserId, action: 'member.data_export', target: { type: 'member', id: userId }, detail: { reason, exportId } }, unit),
    );
    return this.#detail(await this.#member(userId));
  }

  /**
   * Restores an account its member closed to delete it, on their request by mail (decision 147):
   * the 30 days stop, the member may sign in again; the reason goes to the audit log.
   */
  async cancelDeletion(caller: Caller | null, userId: number, reason: string): Promise<ConsoleMemberDetail> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    await this.#member(userId);
    await this.#deps.accountDeletion.cancelDeletion(userId, operatorUserId, reason);
    return this.#detail(await this.#member(userId));
  }

  /**
   * Erases a closed account at once, when its member asked for that rather than wait out the 30
   * days (decision 147); the reason goes to the audit log. A 409 when the account is not closed.
   */
  async eraseNow(caller: Caller | null, userId: number, reason: string): Promise<ConsoleMemberDetail> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    await this.#member(userId);
    if (!(await this.#deps.accountDeletion.eraseNow(userId, operatorUserId, reason))) {
      throw new AppError('conflict', { messageKey: 'console:ops.members.eraseNotClosed' });
    }
    return this.#detail(await this.#member(userId));
  }

  /** Turns two-step sign-in off for a member who lost the phone and the recovery codes; the reason goes to the audit log. */
  async removeTwoFactor(caller: Caller | null, userId: number, reason: string): Promise<ConsoleMemberDetail> {
    const operatorUserId = await this.#deps.operators.requireOperator(caller);
    await this.#member(userId);
    await this.#deps.twoFactor.removeForOperator(userId, (unit) =>
      this.#deps.auditLog.record({ operatorUserId, action: 'member.two_factor_remove', target: { type: 'member', id: userId }, detail: { reason } }, unit),
    );
    return this.#detail(await this.#member(userId));
  }

  async acquisition(caller: Caller | null, since: string | undefined): Promise<AcquisitionReport> {
    await this.#deps.operators.requireOperator(caller);
    const day = since ?? '1970-01-01';
    return { since: day, rows: await this.#deps.acquisition.report(`${day}T00:00:00.000Z`) };
  }

  async audit(
    caller: Caller | null,
    query: { before?: number | undefined; target_type?: string | undefined; target_id?: string | undefined },
  ): Promise<AuditPage> {
    await this.#deps.operators.requireOperator(caller);
    if ((query.target_type === undefined) !== (query.target_id === undefined))
      throw refusal('console_target_pair', { fields: { target_id: ['console:ops.errors.targetPair'] } });
    const page = await this.#deps.auditLog.page({
      limit: 50,
      ...(query.before !== undefined ? { beforeId: query.before } : {}),
      ...(query.target_type && query.target_id ? { target: { type: query.target_type, id: query.target_id } } : {}),
    });
    const names = await this.#deps.members.usernames([...new Set(page.entries.map((entry) => entry.operatorUserId))]);
    return {
      entries: page.entries.map(({ operatorUserId, ...entry }) => ({
        ...entry,
        operator: { id: operatorUserId, username: names.get(operatorUserId) ?? null },
      })),
      nextBefore: page.nextBefore,
    };
  }

  async #member(userId: number): Promise<MemberRow> {
    const member = await this.#deps.members.member(userId);
    if (!member) throw refusal('console_member_not_found');
    return member;
  }

  async #detail(member: MemberRow): Promise<ConsoleMemberDetail> {
    const [methods, failures, dataExports, twoFactor] = await Promise.all([
      this.#deps.members.signInMethods(member.id),
      this.#deps.signInFailures.recent(member, FAILURES_SHOWN),
      this.#deps.memberData.exportsOfMember(member.id),
      this.#deps.twoFactor.required(member.id),
    ]);
    const whatsapp = methods.social.find((account) => account.platform === 'whatsapp');
    return {
      member: toSummary(member),
      signIn: {
        password: methods.password,
        passkeys: methods.passkeys.map((p) => ({ name: p.name, createdAt: p.created_at, lastUsedAt: p.last_used_at })),
        social: methods.social
          .filter((account) => account.platform !== 'whatsapp')
          .map((account) => ({ platform: account.platform, displayName: account.display_name, createdAt: account.created_at })),
        whatsappPhone: whatsapp?.provider_user_id ?? null,
        device: methods.device,
        sessions: methods.sessions,
        twoFactor,
      },
      locked: await this.#deps.accounts.signInLocked(
        member.username,
        failures.map((failure) => failure.address),
      ),
      failures,
      dataExports,
    };
  }
}

function toSummary(row: MemberRow): ConsoleMemberSummary {
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    email: row.email,
    phone: row.phone,
    isGuest: row.is_guest === 1,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
    deletionRequestedAt: row.deletion_requested_at,
    erasedAt: row.erased_at,
  };
}
