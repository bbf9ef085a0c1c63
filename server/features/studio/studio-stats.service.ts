import type { StatsDay, StatsMoney, StatsRange, StatsSale, StudioStats } from '#common/api/studio-stats.schema.ts';
import type { Locale } from '#common/locales.ts';
import { majorUnitsText } from '#common/money.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import type { Clock } from '#server/lib/clock.ts';
import { csvText } from '#server/lib/csv.ts';
import type { DevelopersService } from './developers.service.ts';
import type { DayRange, SaleRow, StudioStatsRepository } from './studio-stats.repository.ts';

const DAY_MS = 86_400_000;
const seconds = (ms: number | null) => (ms === null ? '' : (ms / 1000).toFixed(1));
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The last `days` UTC days, today included. */
export function dayRange(now: Date, days: number): DayRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = today - (days - 1) * DAY_MS;
  return { fromDay: dayOf(first), toDay: dayOf(today), start: new Date(first).toISOString(), end: new Date(today + DAY_MS).toISOString() };
}

/**
 * A developer's statistics of one of their games (decision 101), as figures and as CSV. Every call
 * asks `requireDeveloperOf` first: another developer's game and a missing one are both 404.
 */
export class StudioStatsService {
  readonly #repository: StudioStatsRepository;
  readonly #developers: DevelopersService;
  readonly #clock: Clock;
  constructor(deps: { repository: StudioStatsRepository; developers: DevelopersService; clock: Clock }) {
    this.#repository = deps.repository;
    this.#developers = deps.developers;
    this.#clock = deps.clock;
  }

  async stats(caller: Caller | null, appId: number, days: StatsRange, locale: Locale): Promise<StudioStats> {
    const userId = await this.#developers.requireDeveloperOf(caller, appId);
    const game = await this.#developers.ownGame(userId, appId, locale);
    if (!game) throw new AppError('not_found');
    const range = dayRange(this.#clock.now(), days);
    const [playDays, players, medians, newPlayers, payments, refunds] = await Promise.all([
      this.#repository.playDays(appId, range),
      this.#repository.players(appId, range),
      this.#repository.medianToGameplay(appId, range),
      this.#repository.newPlayers(appId, range),
      this.#repository.sales(appId, range, 'paid'),
      this.#repository.sales(appId, range, 'refunded'),
    ]);
    const plays = new Map(playDays.map((row) => [row.day, row]));
    const arrivals = new Map(newPlayers.map((row) => [row.day, row]));
    const daily: StatsDay[] = [];
    for (let time = Date.parse(range.start); time < Date.parse(range.end); time += DAY_MS) {
      const day = dayOf(time);
      const played = plays.get(day);
      const arrived = arrivals.get(day);
      daily.push({
        day,
        plays: played?.plays ?? 0,
        players: played?.players ?? 0,
        averagePlayMs: played && played.plays > 0 ? Math.round(played.playMs / played.plays) : null,
        medianToGameplayMs: medians.get(day) ?? null,
        newPlayers: arrived?.players ?? 0,
        newMembers: arrived?.members ?? 0,
      });
    }
    const sales = salesOf(payments, refunds, locale);
    const totalPlays = daily.reduce((sum, day) => sum + day.plays, 0);
    const totalPlayMs = playDays.reduce((sum, day) => sum + day.playMs, 0);
    return {
      appId,
      title: game.title,
      days,
      from: range.fromDay,
      to: range.toDay,
      summary: {
        plays: totalPlays,
        players,
        averagePlayMs: totalPlays > 0 ? Math.round(totalPlayMs / totalPlays) : null,
        medianToGameplayMs: medians.get('*') ?? null,
        newPlayers: daily.reduce((sum, day) => sum + day.newPlayers, 0),
        newMembers: daily.reduce((sum, day) => sum + day.newMembers, 0),
        money: moneyOf(sales),
      },
      daily,
      sales,
    };
  }

  /** The same figures as CSV (RFC 4180): a row per day for the game, then a row per day and item sold. */
  async csv(caller: Caller | null, appId: number, days: StatsRange, locale: Locale): Promise<{ filename: string; body: string }> {
    const stats = await this.stats(caller, appId, days, locale);
    const rows: (string | number)[][] = [CSV_HEADER];
    for (const day of stats.daily)
      rows.push([
        day.day,
        stats.title,
        '',
        '',
        '',
        day.plays,
        day.players,
        seconds(day.averagePlayMs),
        seconds(day.medianToGameplayMs),
        day.newPlayers,
        day.newMembers,
        '',
        '',
        '',
        '',
      ]);
    for (const sale of stats.sales)
      rows.push([
        sale.day,
        stats.title,
        sale.sku,
        sale.itemName,
        sale.currency,
        '',
        '',
        '',
        '',
        '',
        '',
        sale.orders,
        majorUnitsText(sale.revenueMinor, sale.currency),
        sale.refunds,
        majorUnitsText(sale.refundedMinor, sale.currency),
      ]);
    return { filename: `game-${appId}-stats-${stats.from}-to-${stats.to}.csv`, body: csvText(rows) };
  }
}

const CSV_HEADER = [
  'date',
  'game',
  'item_sku',
  'item_name',
  'currency',
  'plays',
  'unique_players',
  'average_play_seconds',
  'median_seconds_to_gameplay',
  'new_players',
  'new_members',
  'orders',
  'revenue',
  'refunds',
  'refunded',
];

function itemName(names: string | null, locale: Locale, sku: string): string {
  if (!names) return sku;
  try {
    const parsed = JSON.parse(names) as Partial<Record<Locale, string>>;
    return parsed[locale] ?? parsed.en ?? sku;
  } catch {
    return sku;
  }
}

function salesOf(payments: SaleRow[], refunds: SaleRow[], locale: Locale): StatsSale[] {
  const byKey = new Map<string, StatsSale>();
  const entry = (row: SaleRow) => {
    const key = `${row.day}/${row.itemId}/${row.currency}`;
    let sale = byKey.get(key);
    if (!sale) {
      sale = {
        day: row.day,
        sku: row.sku,
        itemName: itemName(row.names, locale, row.sku),
        currency: row.currency,
        orders: 0,
        revenueMinor: 0,
        refunds: 0,
        refundedMinor: 0,
      };
      byKey.set(key, sale);
    }
    return sale;
  };
  for (const row of payments) {
    const sale = entry(row);
    sale.orders += row.count;
    sale.revenueMinor += row.amountMinor;
  }
  for (const row of refunds) {
    const sale = entry(row);
    sale.refunds += row.count;
    sale.refundedMinor += row.amountMinor;
  }
  return [...byKey.values()].sort((a, b) => a.day.localeCompare(b.day) || a.sku.localeCompare(b.sku) || a.currency.localeCompare(b.currency));
}

function moneyOf(sales: StatsSale[]): StatsMoney[] {
  const byCurrency = new Map<string, StatsMoney>();
  for (const sale of sales) {
    const money = byCurrency.get(sale.currency) ?? { currency: sale.currency, orders: 0, revenueMinor: 0, refunds: 0, refundedMinor: 0 };
    money.orders += sale.orders;
    money.revenueMinor += sale.revenueMinor;
    money.refunds += sale.refunds;
    money.refundedMinor += sale.refundedMinor;
    byCurrency.set(sale.currency, money);
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
