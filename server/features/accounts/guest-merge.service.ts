import type { FastifyBaseLogger } from 'fastify';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import type { GuestMergeRepository } from './guest-merge.repository.ts';

/** What a merge did: `merged` is false when there was no guest to merge (not a guest, gone, or the same account). */
export interface GuestMergeResult {
  merged: boolean;
  /** Guest saves left out because the account's quota for their game was full (decision 082). */
  droppedSaves: number;
}

/**
 * One feature's part of the guest merge (decision 137): it moves what the guest holds in the
 * feature's own tables to the member, in the merge's unit of work. The saves' step answers how many
 * saves the member's quota left out.
 */
export interface GuestMergeStep {
  moveGuest(guestId: number, memberId: number, unit: UnitOfWork): Promise<{ droppedSaves: number } | void>;
}

/**
 * The one guest merge (decision 063): every sign-in that reaches an existing account (password,
 * passkey, device, a social provider, WhatsApp) calls it with the caller it was made with, so
 * a guest who signs in keeps what they played, liked and saved, and its session ends.
 */
export class GuestMergeService {
  readonly #repository: GuestMergeRepository;
  readonly #steps: readonly GuestMergeStep[];
  /** Set by the app: notes guest saves a merge left out. */
  log: Pick<FastifyBaseLogger, 'warn'> | null = null;

  /** `steps` run in their order: the order in which the merge takes the member's rows (decision 137). */
  constructor(repository: GuestMergeRepository, steps: readonly GuestMergeStep[]) {
    this.#repository = repository;
    this.#steps = steps;
  }

  /**
   * Merges the caller's account into the account a sign-in reached when the caller is a guest
   * and another account; anyone else (no session, a member, the same account) is left as is.
   * Answers whether a guest was merged.
   */
  async mergeCallerInto(caller: Caller | null, userId: number): Promise<boolean> {
    // A disabled account (decision 098) takes nothing in: the sign-in is refused before anything moves.
    if (await this.#repository.isDisabled(userId)) throw new AppError('account_disabled');
    if (!caller || caller.userId === userId) return false;
    const { merged, droppedSaves } = await this.mergeGuestInto(caller.userId, userId);
    if (droppedSaves > 0)
      this.log?.warn({ guest: caller.userId, member: userId, droppedSaves }, 'guest saves left out of a merge: the member’s quota was full');
    return merged;
  }

  /**
   * Moves everything a guest holds, in every feature's tables, into a member and deletes the guest
   * with its tokens, in one transaction: the tables are keyed by the user id and change together
   * or not at all. Two merges of one guest at once: the first claims the guest row (a row lock on
   * PostgreSQL, one writer on SQLite) and the second, once it commits, finds no guest and merges nothing.
   */
  async mergeGuestInto(guestId: number, memberId: number): Promise<GuestMergeResult> {
    if (guestId === memberId) return { merged: false, droppedSaves: 0 };
    return this.#repository.transaction(async (unit) => {
      if (!(await this.#repository.claimGuest(guestId, unit))) return { merged: false, droppedSaves: 0 };
      let droppedSaves = 0;
      for (const step of this.#steps) droppedSaves += (await step.moveGuest(guestId, memberId, unit))?.droppedSaves ?? 0;
      await this.#repository.deleteGuest(guestId, unit);
      return { merged: true, droppedSaves };
    });
  }
}
