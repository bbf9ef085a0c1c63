import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { MemberDataFile } from '../member-data/member-data.service.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { DeveloperProfileRow, DevelopersRepository } from './developers.repository.ts';

export interface DeveloperProfile {
  studioName: string;
  contactEmail: string;
  createdAt: string;
}

/**
 * The developer role (decision 095): a member with a studio profile. Every Studio call about a game
 * asks `requireDeveloperOf` first, on the server: the caller must own that game.
 */
export class DevelopersService {
  readonly #repository: DevelopersRepository;
  readonly #clock: Clock;
  constructor(repository: DevelopersRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  async profile(userId: number): Promise<DeveloperProfile | null> {
    const row = await this.#repository.profile(userId);
    return row ? toProfile(row) : null;
  }

  /** Creates or updates the member's studio profile. */
  async saveProfile(userId: number, input: { studioName: string; contactEmail: string }): Promise<DeveloperProfile> {
    const now = isoNow(this.#clock);
    const existing = await this.#repository.profile(userId);
    const row: DeveloperProfileRow = {
      user_id: userId,
      studio_name: input.studioName,
      contact_email: input.contactEmail,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    await this.#repository.saveProfile(row);
    return toProfile(row);
  }

  /** The caller's user id when they have a studio profile; 401 without a caller, 403 without a profile. */
  async requireDeveloper(caller: Caller | null): Promise<number> {
    if (!caller) throw new AppError('unauthenticated');
    if (!(await this.#repository.profile(caller.userId))) throw new AppError('forbidden');
    return caller.userId;
  }

  /** A game the member owns, for the Studio's pages: null when it is not theirs or does not exist. */
  async ownGame(userId: number, appId: number, locale: string): Promise<{ id: number; slug: string; published: boolean; title: string } | null> {
    if ((await this.#repository.developerOf(appId)) !== userId) return null;
    return (await this.#repository.gameSummary(appId, locale)) ?? null;
  }

  /**
   * The caller's own game by its slug (the command-line upload names games so, decision 102);
   * another member's game and no game answer alike (404).
   */
  async requireOwnGameBySlug(caller: Caller | null, slug: string, locale: string): Promise<{ id: number; slug: string; published: boolean; title: string }> {
    if (!caller) throw new AppError('unauthenticated');
    const appId = await this.#repository.gameIdBySlug(slug);
    const game = appId === null ? null : await this.ownGame(caller.userId, appId, locale);
    if (!game) throw new AppError('not_found');
    return game;
  }

  /**
   * The caller's user id when they own the game. Another member's game and a game that does not
   * exist answer alike (404), so ids of games in draft are not revealed.
   */
  async requireDeveloperOf(caller: Caller | null, appId: number): Promise<number> {
    if (!caller) throw new AppError('unauthenticated');
    if ((await this.#repository.developerOf(appId)) !== caller.userId) throw new AppError('not_found');
    return caller.userId;
  }

  /** How many published games the member is the developer of (the account deletion page tells what becomes of them). */
  liveGames(userId: number): Promise<number> {
    return this.#repository.liveGames(userId);
  }

  /** A developer's studio profile and games in "Download my data" (decision 144); no file for a player. */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    const studio = await this.#repository.personalDataOf(userId);
    return studio.profile || studio.games.length > 0 ? [{ name: 'studio.json', content: studio }] : [];
  }

  /** The account erasure's step (decision 147): the member's rows of this feature's tables go, in the erasure's unit of work. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#repository.eraseMember(member.id, unit);
  }
}

function toProfile(row: DeveloperProfileRow): DeveloperProfile {
  return { studioName: row.studio_name, contactEmail: row.contact_email, createdAt: row.created_at };
}
