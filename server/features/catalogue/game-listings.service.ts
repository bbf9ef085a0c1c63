import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { GameListingsRepository } from './game-listings.repository.ts';
import type { GameMetadataWrite } from './game-listings.schema.ts';

/**
 * What the Studio and the Console change in a developer's game's listing (decision 140), written
 * by the catalogue, which owns the tables. The callers decide who may and when; each write joins
 * the caller's unit of work where it has one, so it commits with the caller's own rows.
 */
export class GameListingsService {
  readonly #repository: GameListingsRepository;
  constructor(repository: GameListingsRepository) {
    this.#repository = repository;
  }

  /** A draft game of the developer with its titles; undefined when the slug is taken. */
  createDraft(input: { userId: number; slug: string; titles: Record<string, string>; now: string }): Promise<number | undefined> {
    return this.#repository.createDraft(input);
  }

  /** Replaces the game's metadata in a unit of work of its own. */
  save(appId: number, input: GameMetadataWrite, now: string): Promise<void> {
    return this.#repository.save(appId, input, now);
  }

  /** Replaces the game's metadata in the caller's unit of work (an approved change, decision 112). */
  apply(unit: UnitOfWork, appId: number, input: GameMetadataWrite, now: string): Promise<void> {
    return this.#repository.apply(unit, appId, input, now);
  }

  /** Makes a build the game's live one and publishes the game. */
  makeLive(appId: number, build: { id: number; entry_path: string }, slug: string, now: string, unit: UnitOfWork): Promise<void> {
    return this.#repository.makeLive(appId, build, slug, now, unit);
  }

  /** An operator's change of the game's listing. */
  updateListing(id: number, fields: { published?: number; featured?: number; listing_source: 'console'; updated_at: string }, unit: UnitOfWork): Promise<void> {
    return this.#repository.updateListing(id, fields, unit);
  }
}
