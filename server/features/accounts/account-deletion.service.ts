import { randomBytes } from 'node:crypto';
import type { AccountDeletion, AccountDeletionRequested } from '#common/api/account-deletion.schema.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { AccountProfileService } from './account-profile.service.ts';
import type { AvatarsService } from './avatars.service.ts';
import type { UsersRepository } from './users.repository.ts';

/** How long a closed account waits for its member to change their mind before it is erased (issue 38, point 8). */
export const DELETION_GRACE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Accounts one clean-up run erases at most (each in a transaction of its own); the next run takes the rest. */
const ERASE_BATCH = 50;
/** How long after a restoring sign-in the account's pages say it was restored. */
const RESTORED_NOTICE_MS = DAY_MS;

/** The member an erasure is about: the id, and the contact details some features hold rows by. */
export interface ErasedMember {
  id: number;
  email: string | null;
  phone: string | null;
}

/**
 * One feature's part of an account's erasure (decision 147): it deletes or pseudonymises what its
 * own tables hold of the member, in the erasure's unit of work. `server/services.ts` lists every
 * feature whose tables hold personal data, as it lists the archive's sources (decision 144).
 */
export interface AccountErasureStep {
  eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void>;
}

/** Who did a deletion action, for the audit log: the member themself, an operator, or the clean-up (recorded as the member's own id). */
export type DeletionRecorder = (
  unit: UnitOfWork,
  entry: {
    actorId: number;
    action: 'member.deletion_requested' | 'member.deletion_cancelled' | 'member.erased';
    memberId: number;
    detail: Record<string, unknown>;
  },
) => Promise<void>;

/**
 * Account deletion (decision 147): a member closes the account after proving again that they hold
 * it; every session ends and the account is hidden at once. A sign-in within 30 days restores it
 * (AccessTokensService.issue); after them the hourly clean-up erases it: every feature's step runs
 * in one transaction, and the users row stays only as an opaque id with an anonymous name.
 */
export class AccountDeletionService {
  readonly #users: UsersRepository;
  readonly #profile: Pick<AccountProfileService, 'confirmIdentity'>;
  readonly #avatars: Pick<AvatarsService, 'remove'>;
  readonly #steps: readonly AccountErasureStep[];
  readonly #liveGames: (userId: number) => Promise<number>;
  readonly #record: DeletionRecorder;
  readonly #clock: Clock;

  constructor(deps: {
    users: UsersRepository;
    profile: Pick<AccountProfileService, 'confirmIdentity'>;
    avatars: Pick<AvatarsService, 'remove'>;
    /** Run in this order; the webhooks' step first, while the rows that say which games knew the player are there. */
    steps: readonly AccountErasureStep[];
    liveGames: (userId: number) => Promise<number>;
    record: DeletionRecorder;
    clock: Clock;
  }) {
    this.#users = deps.users;
    this.#profile = deps.profile;
    this.#avatars = deps.avatars;
    this.#steps = deps.steps;
    this.#liveGames = deps.liveGames;
    this.#record = deps.record;
    this.#clock = deps.clock;
  }

  /** What the delete page shows: the grace period, the member's live games, and a restoration of the last day. */
  async status(caller: Caller): Promise<AccountDeletion> {
    const user = await this.#users.findById(caller.userId);
    if (!user) throw new AppError('unauthenticated');
    const restored = user.deletion_restored_at && Date.parse(user.deletion_restored_at) > this.#clock.now().getTime() - RESTORED_NOTICE_MS;
    return {
      graceDays: DELETION_GRACE_DAYS,
      liveGames: await this.#liveGames(caller.userId),
      hasPassword: user.password_hash !== null,
      restoredAt: restored ? user.deletion_restored_at : null,
    };
  }

  /**
   * Closes the caller's account to delete it, after re-authentication (the current password, or a
   * sign-in of the last 10 minutes): every session ends, the caller's included, and the request is
   * in the audit log, in one transaction. A guest has nothing to delete that the guest clean-up
   * does not remove (decision 054): the call needs a member.
   */
  async requestDeletion(caller: Caller, currentPassword: string | undefined): Promise<AccountDeletionRequested> {
    const user = await this.#users.findById(caller.userId);
    if (!user) throw new AppError('unauthenticated');
    if (user.is_guest === 1) throw new AppError('forbidden', { messageKey: 'accounts:deletion.membersOnly' });
    await this.#profile.confirmIdentity(caller, currentPassword);
    const now = this.#clock.now();
    const at = now.toISOString();
    await this.#users.transaction(async (unit) => {
      if (!(await this.#users.markDeletionRequested(caller.userId, at, unit))) return;
      await this.#record(unit, { actorId: caller.userId, action: 'member.deletion_requested', memberId: caller.userId, detail: { by: 'member' } });
    });
    return { requestedAt: at, erasedAfter: new Date(now.getTime() + DELETION_GRACE_DAYS * DAY_MS).toISOString() };
  }

  /** An operator restores a closed account (the member asked by mail); false when it was not closed. */
  cancelDeletion(userId: number, operatorId: number, reason: string): Promise<boolean> {
    return this.#users.transaction(async (unit) => {
      if (!(await this.#users.clearDeletionRequest(userId, isoNow(this.#clock), unit))) return false;
      await this.#record(unit, { actorId: operatorId, action: 'member.deletion_cancelled', memberId: userId, detail: { reason } });
      return true;
    });
  }

  /**
   * The hourly clean-up: erases accounts closed more than 30 days ago, each in one transaction
   * with every feature's step and its audit entry. Safe on several instances at once: the first
   * to claim an account erases it, the others find it erased. Answers how many were erased.
   */
  async eraseDue(): Promise<number> {
    const now = this.#clock.now();
    const cutoff = new Date(now.getTime() - DELETION_GRACE_DAYS * DAY_MS).toISOString();
    let erased = 0;
    for (const userId of await this.#users.dueForErasure(cutoff, ERASE_BATCH)) {
      if (await this.erase(userId, cutoff)) erased++;
    }
    return erased;
  }

  /**
   * An operator erases a closed account at once, when its member asked for that (by mail, say)
   * rather than wait out the 30 days; false when it is not closed (or a sign-in restored it first).
   */
  eraseNow(userId: number, operatorId: number, reason: string): Promise<boolean> {
    const cutoff = new Date(this.#clock.now().getTime() + 1).toISOString();
    return this.erase(userId, cutoff, { actorId: operatorId, detail: { by: 'operator', reason } });
  }

  /** Erases one account closed before `cutoff`; false when a sign-in restored it (or another instance erased it) first. */
  async erase(userId: number, cutoff: string, by?: { actorId: number; detail: Record<string, unknown> }): Promise<boolean> {
    const at = isoNow(this.#clock);
    const avatar = await this.#users.transaction(async (unit) => {
      const member = await this.#users.claimForErasure(userId, cutoff, unit);
      if (!member) return undefined;
      for (const step of this.#steps) await step.eraseMember({ id: member.id, email: member.email, phone: member.phone }, unit);
      const identifiers = [member.username_normalized, member.email, member.phone].filter((value): value is string => value !== null);
      await this.#users.erase(member.id, identifiers, anonymousNickname(), at, unit);
      await this.#record(unit, { actorId: by?.actorId ?? member.id, action: 'member.erased', memberId: member.id, detail: by?.detail ?? { by: 'clean-up' } });
      return { file: member.avatar };
    });
    if (!avatar) return false;
    // An uploaded avatar's files go once the row no longer names them.
    await this.#avatars.remove(avatar.file);
    return true;
  }
}

/** The name kept scores show after an erasure: the same in every language, naming no one. */
function anonymousNickname(): string {
  return `player-${randomBytes(3).toString('hex')}`;
}
