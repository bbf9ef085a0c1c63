import type { Kysely } from 'kysely';
import { majorUnitsText } from '#common/money.ts';
import type { Database } from '#server/db/schema.ts';

/** One row of the acquisition report: a source, medium and campaign, and what came of it. */
export interface AcquisitionRow {
  source: string;
  medium: string;
  campaign: string;
  signUps: number;
  members: number;
  paidOrders: number;
  /** Revenue per currency, in minor units. */
  revenue: Record<string, number>;
}

const NONE = '(none)';

/**
 * Sign-ups (accounts made, with the tags they were made with) and paid orders (with the tags of
 * the request that made them), per source, medium and campaign. The tags are JSON in one column,
 * read the same way on both databases; the grouping is done here.
 */
export class AcquisitionRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async report(since: string): Promise<AcquisitionRow[]> {
    const [users, orders] = await Promise.all([
      this.#db.selectFrom('users').select(['campaign', 'is_guest']).where('created_at', '>=', since).execute(),
      this.#db.selectFrom('orders').select(['campaign', 'amount_minor', 'currency']).where('status', '=', 'paid').where('created_at', '>=', since).execute(),
    ]);
    const rows = new Map<string, AcquisitionRow>();
    const rowOf = (json: string | null) => {
      const tags = parse(json);
      const key = JSON.stringify([tags.source, tags.medium, tags.campaign]);
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { ...tags, signUps: 0, members: 0, paidOrders: 0, revenue: {} }));
      return row;
    };
    for (const user of users) {
      const row = rowOf(user.campaign);
      row.signUps += 1;
      if (user.is_guest === 0) row.members += 1;
    }
    for (const order of orders) {
      const row = rowOf(order.campaign);
      row.paidOrders += 1;
      row.revenue[order.currency] = (row.revenue[order.currency] ?? 0) + order.amount_minor;
    }
    return [...rows.values()].sort((a, b) => b.signUps - a.signUps || b.paidOrders - a.paidOrders || a.source.localeCompare(b.source));
  }
}

function parse(json: string | null): { source: string; medium: string; campaign: string } {
  let tags: Record<string, unknown> = {};
  try {
    tags = json ? (JSON.parse(json) as Record<string, unknown>) : {};
  } catch {
    tags = {};
  }
  return { source: tagText(tags.source), medium: tagText(tags.medium), campaign: tagText(tags.campaign) };
}

function tagText(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : NONE;
}

function money(revenue: Record<string, number>): string {
  return (
    Object.entries(revenue)
      .map(([currency, minor]) => `${majorUnitsText(minor, currency)} ${currency}`)
      .join(', ') || '-'
  );
}

/** The report as an aligned text table. */
export function formatAcquisition(rows: AcquisitionRow[]): string {
  const header = ['source', 'medium', 'campaign', 'sign-ups', 'members', 'paid orders', 'revenue'];
  const lines = [header, ...rows.map((r) => [r.source, r.medium, r.campaign, String(r.signUps), String(r.members), String(r.paidOrders), money(r.revenue)])];
  const widths = header.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)));
  return lines
    .map((line) =>
      line
        .map((cell, i) => (i >= 3 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
