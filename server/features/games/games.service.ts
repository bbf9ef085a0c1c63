import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import type { MemberDataFile } from '../member-data/member-data.service.ts';
import { type GameLogin, type Save, SAVE_VALUE_MAX_BYTES, SAVES_PER_APP_MAX_BYTES } from '#common/api/game-store.schema.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { publishedOrPreviewed } from '#server/lib/preview-access.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { BuildsService } from '../studio/builds.service.ts';
import type { GameTokens } from './game-tokens.ts';
import type { GamesRepository } from './games.repository.ts';

export interface GamesDependencies {
  repository: GamesRepository;
  tokens: GameTokens;
  accounts: Pick<AccountsService, 'userInfo'>;
  clock: Clock;
  /** Lets a build's preview use an unpublished game (decision 097); without it only published games answer. */
  preview?: Pick<BuildsService, 'previewAllows'>;
}

/** The game bridge's server side (decision 064): sign-in tokens for games and cloud saves. */
export class GamesService {
  readonly #repository: GamesRepository;
  readonly #tokens: GameTokens;
  readonly #accounts: Pick<AccountsService, 'userInfo'>;
  readonly #clock: Clock;
  readonly #preview: Pick<BuildsService, 'previewAllows'> | null;

  constructor(deps: GamesDependencies) {
    this.#repository = deps.repository;
    this.#tokens = deps.tokens;
    this.#accounts = deps.accounts;
    this.#clock = deps.clock;
    this.#preview = deps.preview ?? null;
  }

  /**
   * A token for one app and the caller, for the game's backend to verify with the published keys.
   * `preview` (every call here takes it) is the preview label the call came through, if any.
   */
  async login(caller: Caller, appId: number, preview?: string): Promise<GameLogin> {
    await this.#requireApp(caller, appId, preview);
    const user = await this.#accounts.userInfo(caller.userId);
    const { token, expiresAt } = await this.#tokens.issue({ userId: user.uid, appId, nickname: user.nickname, isGuest: user.isGuest }, this.#clock.now());
    return { token, expiresAt, user: { uid: user.uid, nickname: user.nickname, isGuest: user.isGuest } };
  }

  jwks() {
    return this.#tokens.jwks();
  }

  async getSave(caller: Caller, appId: number, key: string, preview?: string): Promise<Save> {
    await this.#requireApp(caller, appId, preview);
    const row = await this.#repository.findSave(caller.userId, appId, key);
    return { key, value: row ? (JSON.parse(row.value) as unknown) : null, updatedAt: row?.updated_at ?? null };
  }

  /** Stores a value as JSON text: 64 KB a value, 256 KB for all of an app's keys; past that a 413 that says which. */
  async putSave(caller: Caller, appId: number, key: string, value: unknown, preview?: string): Promise<Save> {
    await this.#requireApp(caller, appId, preview);
    if (value === undefined) throw new AppError('validation', { fields: { value: ['games:saves.missing'] } });
    const text = JSON.stringify(value);
    const size = Buffer.byteLength(text);
    if (size > SAVE_VALUE_MAX_BYTES)
      throw new AppError('save_too_large', {
        messageKey: 'games:saves.valueTooLarge',
        values: { size: Math.ceil(size / 1024), max: SAVE_VALUE_MAX_BYTES / 1024 },
      });
    const now = isoNow(this.#clock);
    if (!(await this.#repository.putSave(caller.userId, appId, key, text, size, SAVES_PER_APP_MAX_BYTES, now))) {
      throw new AppError('saves_full', { messageKey: 'games:saves.appFull', values: { max: SAVES_PER_APP_MAX_BYTES / 1024 } });
    }
    return { key, value, updatedAt: now };
  }

  async deleteSave(caller: Caller, appId: number, key: string, preview?: string): Promise<Save> {
    await this.#requireApp(caller, appId, preview);
    await this.#repository.deleteSave(caller.userId, appId, key);
    return { key, value: null, updatedAt: null };
  }

  /**
   * The guest merge's step for cloud saves (decision 137): the guest's saves join the member's in
   * the merge's unit of work, within the member's quota a game. Answers how many were left out.
   */
  async moveGuest(guestId: number, memberId: number, unit: UnitOfWork): Promise<{ droppedSaves: number }> {
    return { droppedSaves: await this.#repository.moveGuestSaves(guestId, memberId, SAVES_PER_APP_MAX_BYTES, unit) };
  }

  /** A published app, or an unpublished one reached through its preview by its developer or a QA test member; else 404. */
  async #requireApp(caller: Caller, appId: number, preview: string | undefined): Promise<void> {
    if (await publishedOrPreviewed(await this.#repository.appPublished(appId), this.#preview, caller, appId, preview)) return;
    throw new AppError('not_found', { messageKey: 'catalogue:errors.appNotFound', values: { slug: String(appId) } });
  }

  /** The player's cloud saves in "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    return [{ name: 'cloud-saves.json', content: await this.#repository.savesOf(userId) }];
  }

  /** The account erasure's step (decision 147): the member's rows of this feature's tables go, in the erasure's unit of work. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#repository.eraseMember(member.id, unit);
  }
}
