import type { Locale } from '#common/locales.ts';
import type { ConsoleGame, ConsoleGameListQuery } from '#common/api/console-content.schema.ts';
import type { ContentChanges } from '#server/adapters/content-changes/content-changes.ts';
import { refusal } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { AuditLogService } from './audit-log.service.ts';
import type { GameListingsService } from '../catalogue/game-listings.service.ts';
import type { ConsoleGameRow, ConsoleGamesRepository } from './console-games.repository.ts';
import type { OperatorsService } from './operators.service.ts';

/**
 * Operators' control of the games (decision 099): list every game, unpublish or republish it,
 * feature it on the home page. Each change is audited in its transaction and announced as a
 * content change, so every instance drops its page and derived-data caches at once.
 */
export class ConsoleGamesService {
  readonly #repository: ConsoleGamesRepository;
  readonly #listings: Pick<GameListingsService, 'updateListing'>;
  readonly #operators: OperatorsService;
  readonly #auditLog: AuditLogService;
  readonly #changes: ContentChanges;
  readonly #clock: Clock;
  constructor(options: {
    repository: ConsoleGamesRepository;
    /** The catalogue's listing of a game, which an operator's change writes. */
    listings: Pick<GameListingsService, 'updateListing'>;
    operators: OperatorsService;
    auditLog: AuditLogService;
    changes: ContentChanges;
    clock: Clock;
  }) {
    this.#repository = options.repository;
    this.#listings = options.listings;
    this.#operators = options.operators;
    this.#auditLog = options.auditLog;
    this.#changes = options.changes;
    this.#clock = options.clock;
  }

  async list(caller: Caller | null, query: ConsoleGameListQuery, locale: Locale = 'en'): Promise<{ items: ConsoleGame[] }> {
    await this.#operators.requireOperator(caller);
    const published = query.published === 'all' ? undefined : query.published === 'published';
    const rows = await this.#repository.list(
      { q: query.q, ...(published === undefined ? {} : { published }), ...(query.developer ? { developer: query.developer } : {}) },
      query.limit,
      locale,
    );
    return { items: rows.map(toGame) };
  }

  /** Unpublishes, republishes, features or unfeatures a game; what did not change is not recorded. */
  async change(
    caller: Caller | null,
    id: number,
    change: { published?: boolean | undefined; featured?: boolean | undefined; reason: string },
  ): Promise<ConsoleGame> {
    const operator = await this.#operators.requireOperator(caller);
    const game = await this.#repository.transaction(async (trx) => {
      const before = await this.#repository.find(id, trx);
      if (!before) throw refusal('console_game_not_found');
      const now = isoNow(this.#clock);
      const fields: { published?: number; featured?: number } = {};
      if (change.published !== undefined && Boolean(before.published) !== change.published) fields.published = change.published ? 1 : 0;
      if (change.featured !== undefined && Boolean(before.featured) !== change.featured) fields.featured = change.featured ? 1 : 0;
      if (Object.keys(fields).length === 0) return before;
      // Marked as the Console's: the content import keeps both flags as the operator set them (decision 099).
      await this.#listings.updateListing(id, { ...fields, listing_source: 'console', updated_at: now }, trx);
      if (fields.published !== undefined) {
        await this.#auditLog.record(
          {
            operatorUserId: operator,
            action: fields.published ? 'game.republish' : 'game.unpublish',
            target: { type: 'game', id },
            detail: { slug: before.slug, reason: change.reason },
          },
          trx,
        );
      }
      if (fields.featured !== undefined) {
        await this.#auditLog.record(
          {
            operatorUserId: operator,
            action: fields.featured ? 'game.feature' : 'game.unfeature',
            target: { type: 'game', id },
            detail: { slug: before.slug, reason: change.reason },
          },
          trx,
        );
      }
      return (await this.#repository.find(id, trx))!;
    });
    // Every instance drops its page cache and the catalogue's derived data (hosted games, counts).
    await this.#changes.announce();
    return toGame(game);
  }
}

function toGame(row: ConsoleGameRow): ConsoleGame {
  return {
    id: row.id,
    slug: row.slug,
    type: row.type,
    title: row.title,
    published: row.published === 1,
    featured: row.featured === 1,
    studio: row.developer_user_id === null ? null : { userId: row.developer_user_id, name: row.studio_name ?? '' },
    updatedAt: row.updated_at,
    liveVersion: row.live_version,
    rollbackVersion: row.rollback_version === null ? null : Number(row.rollback_version),
  };
}
