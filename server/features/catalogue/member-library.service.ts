import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import type { MemberDataFile } from '../member-data/member-data.service.ts';
import type { FavouriteList, FavouriteState, MemberListQuery, Played, PlayedList } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { decodeCursor, pageWithCursor } from '#server/lib/cursor.ts';
import { invalidCursor, toSummary } from './catalogue.service.ts';
import type { MemberLibraryRepository } from './member-library.repository.ts';

/** Decides what a member's library holds: plays (guests included) and favourites. */
export class MemberLibraryService {
  readonly #repository: MemberLibraryRepository;
  readonly #clock: Clock;
  constructor(repository: MemberLibraryRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  async #requireApp(appId: number): Promise<void> {
    if (!(await this.#repository.publishedAppExists(appId))) {
      throw new AppError('not_found', { messageKey: 'catalogue:errors.appNotFound', values: { slug: String(appId) } });
    }
  }

  /** Records that the member started the app now. */
  async recordPlay(userId: number, appId: number): Promise<Played> {
    await this.#requireApp(appId);
    const row = await this.#repository.recordPlay(userId, appId, isoNow(this.#clock));
    return { appId, playCount: Number(row.play_count), lastPlayedAt: row.last_played_at };
  }

  async recentlyPlayed(userId: number, locale: Locale, query: MemberListQuery): Promise<PlayedList> {
    const rows = await this.#repository.listPlayed(userId, locale, query.limit, textCursor(query.cursor, locale));
    const { page, nextCursor } = pageWithCursor(rows, query.limit, (row) => ({ v: row.last_played_at, id: row.id }));
    return { items: page.map((row) => ({ ...toSummary(row), plays: Number(row.plays), lastPlayedAt: row.last_played_at })), nextCursor };
  }

  async setFavourite(userId: number, appId: number, favourite: boolean): Promise<FavouriteState> {
    if (favourite) {
      await this.#requireApp(appId);
      await this.#repository.addFavourite(userId, appId, isoNow(this.#clock));
    } else {
      // Removing works for an app unpublished since: the member must be able to tidy up.
      await this.#repository.removeFavourite(userId, appId);
    }
    return { appId, favourite };
  }

  async isFavourite(userId: number, appId: number): Promise<boolean> {
    return this.#repository.isFavourite(userId, appId);
  }

  async favourites(userId: number, locale: Locale, query: MemberListQuery): Promise<FavouriteList> {
    const rows = await this.#repository.listFavourites(userId, locale, query.limit, textCursor(query.cursor, locale));
    const { page, nextCursor } = pageWithCursor(rows, query.limit, (row) => ({ v: row.favourited_at, id: row.id }));
    return { items: page.map((row) => ({ ...toSummary(row), favouritedAt: row.favourited_at })), nextCursor };
  }

  /** The guest merge's step for plays and favourites (decision 137): the guest's join the member's in the merge's unit of work. */
  moveGuest(guestId: number, memberId: number, unit: UnitOfWork): Promise<void> {
    return this.#repository.moveGuestRows(guestId, memberId, unit);
  }

  /** The member's plays and favourites in "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    const { plays, favourites } = await this.#repository.personalDataOf(userId);
    return [
      { name: 'played-games.json', content: plays },
      { name: 'favourites.json', content: favourites },
    ];
  }

  /** The account erasure's step (decision 147): the member's rows of this feature's tables go, in the erasure's unit of work. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#repository.eraseMember(member.id, unit);
  }
}

/** Both lists are ordered by a time, so their cursors carry text. */
function textCursor(value: string | undefined, locale: Locale) {
  const cursor = decodeCursor(value);
  if (cursor && typeof cursor.v !== 'string') throw invalidCursor(locale);
  return cursor;
}
