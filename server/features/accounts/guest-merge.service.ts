import type { FastifyBaseLogger } from 'fastify';
import { SAVES_PER_APP_MAX_BYTES } from '#common/api/game-store.schema.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import type { GuestMergeRepository } from './guest-merge.repository.ts';

/**
 * The one guest merge (decision 063): every sign-in that reaches an existing account (password,
 * passkey, device, a social provider, WhatsApp) calls it with the caller it was made with, so
 * a guest who signs in keeps what they played, liked and saved, and its session ends.
 */
export class GuestMergeService {
  readonly #repository: GuestMergeRepository;
  /** Set by the app: notes guest saves a merge left out. */
  log: Pick<FastifyBaseLogger, 'warn'> | null = null;

  constructor(repository: GuestMergeRepository) {
    this.#repository = repository;
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
    const { merged, droppedSaves } = await this.#repository.mergeGuestInto(caller.userId, userId, SAVES_PER_APP_MAX_BYTES);
    if (droppedSaves > 0)
      this.log?.warn({ guest: caller.userId, member: userId, droppedSaves }, 'guest saves left out of a merge: the member’s quota was full');
    return merged;
  }
}
