// Generated ledger data for measuring studios' balances and statements (docs/performance.md, decision 149):
// `DATABASE_URL=postgres://postgres@127.0.0.1:5432/test DATABASE_SCHEMA=earnings_bench node scripts/earnings-data.ts [--orders 1000000] [--refunds 100000]`
// inserts one studio with 20 games of 5 items each, and its paid orders over 12 UTC months (the 11
// that ended and the current one, an equal share each, so the open month is as full as a closed
// one) as the ledger posts them: a payment and a provider fee per order, a whole refund for some,
// a payout per ended month approved and sent, with their lines, in a handful of bulk statements.
// Then it closes the ended months with the statements' own code and prints the studio's id.
// PostgreSQL only; run it on a scratch schema or database.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { migrateToLatest } from '../server/db/migrate.ts';
import { EarningsService } from '../server/features/earnings/earnings.service.ts';
import { LedgerRepository } from '../server/features/earnings/ledger.repository.ts';
import { StatementsRepository } from '../server/features/earnings/statements.repository.ts';
import { monthOf, monthStart, previousMonth } from '../server/features/earnings/statement-months.ts';
import { systemClock } from '../server/lib/clock.ts';
import { openGeneratedDataDatabase, timedStep } from './lib/generated-data.ts';

const { values } = parseArgs({ options: { orders: { type: 'string', default: '1000000' }, refunds: { type: 'string', default: '100000' } } });
const orders = Number(values.orders);
const refunds = Number(values.refunds);
const { config, database } = await openGeneratedDataDatabase('earnings-data');
const db = database.db;
const step = timedStep;
/** An instant in the ledger's text form (ISO 8601, milliseconds, Z) from a timestamptz expression. */
const iso = (expression: ReturnType<typeof sql>) => sql`to_char((${expression}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
try {
  await migrateToLatest(db, database.kind);
  const now = new Date();
  const stamp = now.toISOString();
  const tag = randomBytes(3).toString('hex');
  const current = monthOf(stamp);
  let first = current;
  for (let i = 0; i < 11; i += 1) first = previousMonth(first);
  const holdDays = config.earnings.holdDays;

  const [studio] = (
    await sql<{ id: number }>`insert into users (nickname, is_guest, username, username_normalized, created_at, updated_at)
      values ('Earnings bench studio', 0, ${`earnings-${tag}`}, ${`earnings-${tag}`}, ${stamp}, ${stamp}) returning id`.execute(db)
  ).rows;
  const studioId = studio!.id;
  await db
    .insertInto('developer_profiles')
    .values({ user_id: studioId, studio_name: `Earnings bench ${tag}`, contact_email: 'bench@example.test', created_at: stamp, updated_at: stamp })
    .execute();
  await sql`insert into apps (slug, type, entry_url, thumbnail, screenshots, orientation, width, height, developer, featured, play_count, released_at, published, developer_user_id, created_at, updated_at)
    select 'earnings-' || ${tag} || '-' || i, 'game', 'https://example.test/' || i || '/index.html', '', '[]', 'any', 800, 600, null, 0, 0, ${stamp}, 1, ${studioId}, ${stamp}, ${stamp}
    from generate_series(1, 20) as i`.execute(db);
  await sql`insert into app_items (app_id, sku, price_minor, currency, names, kind, active, created_at, updated_at)
    select a.id, 'gems-' || s, 99 + 200 * s, 'USD', '{"en":"Gems"}', 'consumable', 1, ${stamp}, ${stamp}
    from apps a cross join generate_series(0, 4) as s where a.developer_user_id = ${studioId}`.execute(db);
  const items = (
    await sql<{ id: number; app_id: number; price_minor: number }>`select i.id, i.app_id, i.price_minor from app_items i join apps a on a.id = i.app_id
      where a.developer_user_id = ${studioId} order by i.id`.execute(db)
  ).rows;
  await sql`create temporary table bench_items (n integer primary key, id integer, app_id integer, price integer)`.execute(db);
  await sql`insert into bench_items select row_number() over (order by id) - 1, id, app_id, price_minor from app_items where id in (${sql.join(items.map((i) => i.id))})`.execute(
    db,
  );

  // Order i: month i % 12 of the 12, at a point of that month (of its part so far for the current one), item i % 100.
  const monthOfOrder = sql`(${sql.lit(monthStart(first))}::timestamptz + make_interval(months => i % 12))`;
  const spanOf = sql`(least(${monthOfOrder} + interval '1 month', ${sql.lit(stamp)}::timestamptz) - ${monthOfOrder})`;
  const postedAt = sql`(${monthOfOrder} + ${spanOf} * ((i::bigint * 7919) % 100003) / 100003.0)`;
  await step(`${orders} payments`, () =>
    sql`insert into ledger_entries (source_key, kind, currency, order_id, app_id, item_id, studio_user_id, share_bp, gross_minor, deductions_minor, platform_minor, studio_minor, posted_at)
      select 'bench-' || ${tag} || ':' || i || ':paid', 'payment', 'USD', i, b.app_id, b.id, ${studioId}, 7000, b.price, 0, b.price - (b.price * 7) / 10, (b.price * 7) / 10, ${iso(postedAt)}
      from generate_series(1, ${sql.lit(orders)}) as i join bench_items b on b.n = i % 100`.execute(db),
  );
  await step(`${orders} provider fees`, () =>
    sql`insert into ledger_entries (source_key, kind, currency, order_id, app_id, item_id, studio_user_id, share_bp, gross_minor, deductions_minor, platform_minor, studio_minor, posted_at)
      select 'bench-' || ${tag} || ':' || order_id || ':fee', 'provider-fee', 'USD', order_id, app_id, item_id, studio_user_id, 7000, 0,
        gross_minor / 20, -(gross_minor / 20 - (gross_minor / 20 * 7) / 10), -((gross_minor / 20 * 7) / 10), posted_at
      from ledger_entries where studio_user_id = ${studioId} and kind = 'payment'`.execute(db),
  );
  // Every (orders / refunds)th order refunded whole, 1 to 20 days after its payment (never after now).
  await step(`${refunds} refunds`, () =>
    sql`insert into ledger_entries (source_key, kind, currency, order_id, app_id, item_id, studio_user_id, share_bp, gross_minor, deductions_minor, platform_minor, studio_minor, posted_at)
      select 'bench-' || ${tag} || ':' || order_id || ':refund', 'refund', 'USD', order_id, app_id, item_id, studio_user_id, 7000, -gross_minor, 0, -platform_minor, -studio_minor,
        ${iso(sql`least(posted_at::timestamptz + make_interval(days => 1 + order_id % 20), ${sql.lit(stamp)}::timestamptz - interval '1 minute')`)}
      from ledger_entries where studio_user_id = ${studioId} and kind = 'payment' and order_id % ${sql.lit(Math.max(1, Math.round(orders / refunds)))} = 0`.execute(
      db,
    ),
  );
  // A payout approved on the 5th of each month after the first, of 1,000,000 minor units, sent the day after.
  await step('payouts', async () => {
    for (const [kind, day] of [
      ['payout', 5],
      ['payout-sent', 6],
    ] as const)
      await sql`insert into ledger_entries (source_key, kind, currency, payout_id, studio_user_id, gross_minor, deductions_minor, platform_minor, studio_minor, posted_at)
        select 'bench-' || ${tag} || ':payout:' || m || ':' || ${kind}, ${kind}, 'USD', m, ${studioId}, 0, 0, 0, ${kind === 'payout' ? -1_000_000 : 0},
          ${iso(sql`${sql.lit(monthStart(first))}::timestamptz + make_interval(months => m, days => ${sql.lit(day - 1)})`)}
        from generate_series(1, 11) as m
        where ${sql.lit(monthStart(first))}::timestamptz + make_interval(months => m, days => ${sql.lit(day - 1)}) < ${sql.lit(stamp)}::timestamptz`.execute(
        db,
      );
  });
  const held = (expression: string) => iso(sql`${sql.raw(expression)}::timestamptz + make_interval(days => ${sql.lit(holdDays)})`);
  await step('lines', async () => {
    // Each entry's lines as the ledger posts them: the studio's share of a payment and its fee held.
    await sql`insert into ledger_lines (entry_id, account, studio_user_id, currency, amount_minor, posted_at, available_at)
      select e.id, l.account, case when l.account in ('studio', 'payouts-in-transit', 'payouts-sent') then e.studio_user_id end, e.currency, l.amount, e.posted_at,
        case when l.held then ${held('e.posted_at')} else e.posted_at end
      from ledger_entries e cross join lateral (values
        ('buyers', -e.gross_minor, false, 'payment'), ('studio', e.studio_minor, true, 'payment'), ('platform', e.platform_minor, false, 'payment'),
        ('provider-deductions', e.deductions_minor, false, 'provider-fee'), ('studio', e.studio_minor, true, 'provider-fee'), ('platform', e.platform_minor, false, 'provider-fee'),
        ('buyers', -e.gross_minor, false, 'refund'), ('studio', e.studio_minor, false, 'refund'), ('platform', e.platform_minor, false, 'refund'),
        ('studio', -1000000, false, 'payout'), ('payouts-in-transit', 1000000, false, 'payout'),
        ('payouts-in-transit', -1000000, false, 'payout-sent'), ('payouts-sent', 1000000, false, 'payout-sent')
      ) as l(account, amount, held, kind)
      where e.studio_user_id = ${studioId} and l.kind = e.kind and l.amount <> 0`.execute(db);
  });
  await step('vacuum analyze', async () => {
    for (const table of ['ledger_entries', 'ledger_lines', 'earnings_statements', 'earnings_statement_lines'])
      await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  });
  const earnings = new EarningsService({
    repository: new StatementsRepository(db),
    ledger: new LedgerRepository(db),
    config: config.earnings,
    clock: systemClock,
    studio: { requireDeveloper: async () => studioId },
  });
  let closed = 0;
  await step('closing the ended months', async () => {
    closed = await earnings.closeMonths(new Date().toISOString());
  });
  const counts = (
    await sql<{ entries: number; lines: number }>`select (select count(*) from ledger_entries where studio_user_id = ${studioId}) as entries,
      (select count(*) from ledger_lines l join ledger_entries e on e.id = l.entry_id where e.studio_user_id = ${studioId}) as lines`.execute(db)
  ).rows[0]!;
  console.log(JSON.stringify({ studio: studioId, entries: Number(counts.entries), lines: Number(counts.lines), statementsClosed: closed, openMonth: current }));
} finally {
  await database.close();
}
