import type { GameListingsService } from '../catalogue/game-listings.service.ts';
import {
  GAME_CHANGE_FIELDS,
  type GameChangeField,
  type GameChangeSummary,
  type ItemChange,
  type PriceChange,
  type QueuedGameChange,
  type StudioGameReview,
} from '#common/api/game-changes.schema.ts';
import type { AuditLogService } from '#server/features/console/audit-log.service.ts';
import type { OperatorsService } from '#server/features/console/operators.service.ts';
import { AppError, refusal } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { DevelopersService } from './developers.service.ts';
import type { GameChangeRow, GameChangesRepository } from './game-changes.repository.ts';
import type { StudioGameMetadata, StudioGamesRepository, StudioGameWrite } from './studio-games.repository.ts';

type Texts = StudioGameMetadata['texts'][string];
type StoredItem = StudioGameMetadata['items'][number];

/** How many price changes the Studio's history shows. */
const PRICE_HISTORY_MAX = 200;

export interface GameChangesOptions {
  repository: GameChangesRepository;
  games: StudioGamesRepository;
  /** The catalogue's listing of the game, where an approved change is applied. */
  listings: Pick<GameListingsService, 'apply'>;
  developers: DevelopersService;
  operators: OperatorsService;
  auditLog: AuditLogService;
  clock: Clock;
  /** The search index's tokens of a game's texts, as the Studio's save writes them. */
  searchTokens: StudioGameWrite['searchTokens'];
  /** Tells every instance that the catalogue changed. */
  announce: () => Promise<void>;
}

/**
 * Changes of a live game go through review (decision 112): a save of a published game keeps the
 * whole form as the game's pending change instead of writing it, an operator other than the
 * game's developer approves it (applied in one transaction) or rejects it with a reason. Orders keep
 * the price they were made at; every price an approval changes is recorded.
 */
export class GameChangesService {
  readonly #o: GameChangesOptions;
  constructor(options: GameChangesOptions) {
    this.#o = options;
  }

  /**
   * Keeps a live game's saved form as its pending change, in place of the one pending before. A
   * form equal to the live game leaves nothing pending. The caller was checked to be the game's
   * developer. Runs under the game's lock, so a review at the same moment comes wholly before or after.
   */
  async submit(userId: number, appId: number, metadata: StudioGameMetadata): Promise<GameChangeRow | null> {
    const now = isoNow(this.#o.clock);
    return this.#o.repository.transaction(async (trx) => {
      if (!(await this.#o.repository.lockGame(appId, trx))) throw new AppError('not_found');
      const live = (await this.#o.games.read(appId, trx))!;
      await this.#o.repository.closePending(appId, 'superseded', now, trx);
      const changes = describeChanges(live, metadata);
      if (changes.fields.length === 0) return null;
      return this.#o.repository.insertPending(
        { app_id: appId, metadata: JSON.stringify(metadata), changes: JSON.stringify(changes), submitted_by: userId, created_at: now },
        trx,
      );
    });
  }

  /** The form a live game's Studio page shows: its pending change when it has one. */
  async pendingMetadata(appId: number): Promise<StudioGameMetadata | null> {
    const pending = await this.#o.repository.pending(appId);
    return pending ? (JSON.parse(pending.metadata) as StudioGameMetadata) : null;
  }

  /** The game's newest change unless withdrawn or replaced: pending, or how its review ended. */
  async latestReview(appId: number): Promise<StudioGameReview | null> {
    const row = await this.#o.repository.latest(appId);
    if (!row || row.status === 'withdrawn' || row.status === 'superseded') return null;
    return {
      id: row.id,
      status: row.status,
      submittedAt: row.created_at,
      reviewedAt: row.reviewed_at,
      reason: row.reason,
      changes: JSON.parse(row.changes) as GameChangeSummary,
    };
  }

  /** The developer takes back the pending change: the live game stays as it is. */
  async withdraw(caller: Caller | null, appId: number): Promise<void> {
    await this.#o.developers.requireDeveloperOf(caller, appId);
    if (!(await this.#o.repository.closePending(appId, 'withdrawn', isoNow(this.#o.clock)))) throw refusal('change_nothing_pending');
  }

  /** The developer's history of the game's prices, newest first. */
  async priceHistory(caller: Caller | null, appId: number): Promise<PriceChange[]> {
    await this.#o.developers.requireDeveloperOf(caller, appId);
    const rows = await this.#o.repository.priceHistory(appId, PRICE_HISTORY_MAX);
    return rows.map((row) => ({
      sku: row.sku,
      currency: row.currency,
      oldPrice: row.old_price_minor,
      oldCurrency: row.old_currency,
      newPrice: row.new_price_minor,
      changedAt: row.changed_at,
    }));
  }

  /** How many changes of live games wait for review (the Console overview asks, having checked the operator). */
  waitingCount(): Promise<number> {
    return this.#o.repository.pendingCount();
  }

  /** The operators' queue of live games' changes, oldest first. */
  async queue(caller: Caller | null, locale: string): Promise<QueuedGameChange[]> {
    await this.#o.operators.requireOperator(caller);
    const rows = await this.#o.repository.queue(locale);
    return rows.map((row) => ({
      id: row.id,
      appId: row.app_id,
      slug: row.slug,
      title: row.title,
      studioName: row.studio_name,
      submittedAt: row.created_at,
      changes: JSON.parse(row.changes) as GameChangeSummary,
    }));
  }

  /**
   * An operator approves a pending change: the game becomes the saved form in one transaction, the
   * change is marked approved only if it is still the pending one, and the audit log records it
   * with each price it changes. The game's developer (an operator too) cannot approve their own.
   */
  async approve(caller: Caller | null, changeId: number): Promise<{ id: number; appId: number; status: 'approved' }> {
    const operator = await this.#o.operators.requireOperator(caller);
    const now = isoNow(this.#o.clock);
    const reviewed = await this.#o.repository.transaction(async (trx) => {
      const change = await this.#reviewable(changeId, operator, trx);
      if (!(await this.#o.repository.review(change.id, { status: 'approved', reviewedBy: operator, reason: null, now }, trx)))
        throw refusal('change_not_pending');
      const live = (await this.#o.games.read(change.app_id, trx))!;
      const metadata = JSON.parse(change.metadata) as StudioGameMetadata;
      await this.#o.listings.apply(trx, change.app_id, { ...metadata, searchTokens: this.#o.searchTokens }, now);
      const prices = describeChanges(live, metadata).items.filter((item) => item.after && (item.what.includes('new') || item.what.includes('price')));
      await this.#o.repository.recordPriceChanges(
        prices.map((item) => ({
          app_id: change.app_id,
          sku: item.sku,
          currency: item.after!.currency,
          old_price_minor: item.before?.price ?? null,
          old_currency: item.before?.currency ?? null,
          new_price_minor: item.after!.price,
          requested_by: change.submitted_by,
          approved_by: operator,
          change_id: change.id,
          changed_at: now,
        })),
        trx,
      );
      const changes = JSON.parse(change.changes) as GameChangeSummary;
      await this.#o.auditLog.record(
        {
          operatorUserId: operator,
          action: 'game_change.approve',
          target: { type: 'game', id: change.app_id },
          detail: { changeId: change.id, submittedBy: change.submitted_by, fields: changes.fields },
        },
        trx,
      );
      for (const item of prices)
        await this.#o.auditLog.record(
          {
            operatorUserId: operator,
            action: 'item.price_change',
            target: { type: 'game', id: change.app_id },
            detail: {
              changeId: change.id,
              sku: item.sku,
              from: item.before ? { price: item.before.price, currency: item.before.currency } : null,
              to: { price: item.after!.price, currency: item.after!.currency },
              requestedBy: change.submitted_by,
            },
          },
          trx,
        );
      return change;
    });
    await this.#o.announce();
    return { id: reviewed.id, appId: reviewed.app_id, status: 'approved' };
  }

  /** An operator rejects a pending change with a reason its studio reads; the live game stays as it is. */
  async reject(caller: Caller | null, changeId: number, reason: string): Promise<{ id: number; appId: number; status: 'rejected' }> {
    const operator = await this.#o.operators.requireOperator(caller);
    const now = isoNow(this.#o.clock);
    const reviewed = await this.#o.repository.transaction(async (trx) => {
      const change = await this.#reviewable(changeId, operator, trx);
      if (!(await this.#o.repository.review(change.id, { status: 'rejected', reviewedBy: operator, reason, now }, trx))) throw refusal('change_not_pending');
      await this.#o.auditLog.record(
        {
          operatorUserId: operator,
          action: 'game_change.reject',
          target: { type: 'game', id: change.app_id },
          detail: { changeId: change.id, submittedBy: change.submitted_by, reason },
        },
        trx,
      );
      return change;
    });
    return { id: reviewed.id, appId: reviewed.app_id, status: 'rejected' };
  }

  /** The change, under its game's lock; refused to the game's own developer and to whoever sent it. */
  async #reviewable(changeId: number, operator: number, trx: Parameters<GameChangesRepository['lockGame']>[1]): Promise<GameChangeRow> {
    const found = await this.#o.repository.find(changeId, trx);
    if (!found) throw new AppError('not_found');
    await this.#o.repository.lockGame(found.app_id, trx);
    const change = (await this.#o.repository.find(changeId, trx))!;
    if (change.status !== 'pending') throw refusal('change_not_pending');
    const developer = await this.#o.repository.developerOf(change.app_id, trx);
    if (change.submitted_by === operator || developer === operator) throw refusal('change_own');
    return change;
  }
}

/** Sorts object keys, so that two values compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

function fieldValue(game: StudioGameMetadata, field: Exclude<GameChangeField, 'items'>): unknown {
  switch (field) {
    case 'i18n':
      return Object.fromEntries(Object.entries(game.texts).map(([locale, t]: [string, Texts]) => [locale, { ...t, instructions: t.instructions || null }]));
    case 'categories':
    case 'tags':
      return [...game[field]].sort();
    default:
      return game[field];
  }
}

function itemState(item: StoredItem) {
  return { price: item.price, currency: item.currency, kind: item.kind, names: item.names };
}

/** What a saved form changes of the live game: the fields, each item's change, the fields' values before and after. */
export function describeChanges(live: StudioGameMetadata, proposed: StudioGameMetadata): GameChangeSummary {
  const fields: GameChangeField[] = [];
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const field of GAME_CHANGE_FIELDS) {
    if (field === 'items') continue;
    const [was, is] = [fieldValue(live, field), fieldValue(proposed, field)];
    if (canonical(was) === canonical(is)) continue;
    fields.push(field);
    before[field] = was;
    after[field] = is;
  }
  const items: ItemChange[] = [];
  const liveBySku = new Map(live.items.map((item) => [item.sku, item]));
  for (const item of proposed.items) {
    const was = liveBySku.get(item.sku);
    const what: ItemChange['what'] = [];
    if (!was) what.push('new');
    else {
      if (was.price !== item.price || was.currency !== item.currency) what.push('price');
      if (canonical(was.names) !== canonical(item.names)) what.push('name');
      if (was.kind !== item.kind) what.push('kind');
    }
    if (what.length > 0) items.push({ sku: item.sku, what, before: was ? itemState(was) : null, after: itemState(item) });
  }
  const listed = new Set(proposed.items.map((item) => item.sku));
  for (const item of live.items) if (!listed.has(item.sku)) items.push({ sku: item.sku, what: ['removed'], before: itemState(item), after: null });
  if (items.length > 0) fields.push('items');
  return { fields: GAME_CHANGE_FIELDS.filter((f) => fields.includes(f)), items, before, after };
}
