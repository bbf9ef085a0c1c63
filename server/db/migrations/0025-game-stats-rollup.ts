import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { createTriggers, dropTriggers, type Trigger } from './helpers.ts';

/**
 * A daily rollup of play sessions for the Studio's statistics (decision 103): per game and UTC
 * day the plays, their play time, the distinct accounts of the day and the accounts whose latest
 * day of play it is; the times to gameplay in 100 ms buckets; and the (game, day, account) and
 * (game, account, latest day) rows those two counts stand on. Triggers on `game_sessions` keep it
 * in the same statement as every write of the play page (a report adds the difference of its
 * play time, under the session row's lock), and the accounts' rows follow a removed account by
 * cascade, their own triggers taking it off the counts. The same trigger statements on SQLite and
 * PostgreSQL; the existing sessions are counted in by `rebuildGameStats`.
 */

/**
 * Times to gameplay are counted in buckets this wide (the Studio's medians are to 100 ms). A frozen
 * copy of the Studio's rule (server/features/studio/game-stats-rules.ts): a migration never changes.
 */
export const GAMEPLAY_BUCKET_MS = 100;

const dayUpsert = (app: string, day: string, plays: string, playMs: string, players: string, lastPlayers: string, set: string) =>
  `insert into game_stats_days (app_id, day, plays, play_ms, players, last_players) values (${app}, ${day}, ${plays}, ${playMs}, ${players}, ${lastPlayers})
   on conflict (app_id, day) do update set ${set}`;

const playerRows = [
  `insert into game_stats_day_players (app_id, day, user_id) values (new.app_id, new.day, new.user_id) on conflict (app_id, day, user_id) do nothing`,
  `insert into game_stats_players (app_id, user_id, last_day) values (new.app_id, new.user_id, new.day)
   on conflict (app_id, user_id) do update set last_day = excluded.last_day where game_stats_players.last_day < excluded.last_day`,
];
const bucketUp = `insert into game_stats_gameplay (app_id, day, bucket, sessions) values (new.app_id, new.day, new.to_gameplay_ms / ${GAMEPLAY_BUCKET_MS}, 1)
   on conflict (app_id, day, bucket) do update set sessions = game_stats_gameplay.sessions + 1`;

const TRIGGERS: Trigger[] = [
  {
    name: 'game_stats_session_added',
    event: 'after insert on game_sessions',
    when: 'true',
    body: [
      dayUpsert(
        'new.app_id',
        'new.day',
        '1',
        'new.play_ms',
        '0',
        '0',
        'plays = game_stats_days.plays + 1, play_ms = game_stats_days.play_ms + excluded.play_ms',
      ),
    ],
  },
  { name: 'game_stats_session_gameplay', event: 'after insert on game_sessions', when: 'new.to_gameplay_ms is not null', body: [bucketUp] },
  { name: 'game_stats_session_player', event: 'after insert on game_sessions', when: 'new.user_id is not null', body: playerRows },
  {
    name: 'game_stats_session_played',
    event: 'after update on game_sessions',
    when: 'new.play_ms <> old.play_ms',
    body: [`update game_stats_days set play_ms = play_ms + (new.play_ms - old.play_ms) where app_id = new.app_id and day = new.day`],
  },
  {
    name: 'game_stats_session_gameplay_was',
    event: 'after update on game_sessions',
    when: 'old.to_gameplay_ms is not null and new.to_gameplay_ms is distinct from old.to_gameplay_ms',
    body: [
      `update game_stats_gameplay set sessions = sessions - 1
       where app_id = old.app_id and day = old.day and bucket = old.to_gameplay_ms / ${GAMEPLAY_BUCKET_MS}`,
    ],
  },
  {
    name: 'game_stats_session_gameplay_now',
    event: 'after update on game_sessions',
    when: 'new.to_gameplay_ms is not null and new.to_gameplay_ms is distinct from old.to_gameplay_ms',
    body: [bucketUp],
  },
  {
    name: 'game_stats_session_player_now',
    event: 'after update on game_sessions',
    when: 'new.user_id is not null and new.user_id is distinct from old.user_id',
    body: playerRows,
  },
  {
    name: 'game_stats_day_player_added',
    event: 'after insert on game_stats_day_players',
    when: 'true',
    body: [dayUpsert('new.app_id', 'new.day', '0', '0', '1', '0', 'players = game_stats_days.players + 1')],
  },
  {
    name: 'game_stats_day_player_removed',
    event: 'after delete on game_stats_day_players',
    when: 'true',
    body: [`update game_stats_days set players = players - 1 where app_id = old.app_id and day = old.day`],
  },
  {
    name: 'game_stats_player_added',
    event: 'after insert on game_stats_players',
    when: 'true',
    body: [dayUpsert('new.app_id', 'new.last_day', '0', '0', '0', '1', 'last_players = game_stats_days.last_players + 1')],
  },
  {
    name: 'game_stats_player_moved',
    event: 'after update on game_stats_players',
    when: 'new.last_day <> old.last_day',
    body: [
      `update game_stats_days set last_players = last_players - 1 where app_id = old.app_id and day = old.last_day`,
      dayUpsert('new.app_id', 'new.last_day', '0', '0', '0', '1', 'last_players = game_stats_days.last_players + 1'),
    ],
  },
  {
    name: 'game_stats_player_removed',
    event: 'after delete on game_stats_players',
    when: 'true',
    body: [`update game_stats_days set last_players = last_players - 1 where app_id = old.app_id and day = old.last_day`],
  },
];

/**
 * Counts every session into the rollup again from scratch (the migration's backfill, and the
 * generated data of `scripts/studio-stats-data.ts`, which loads its sessions with the triggers off).
 */
export async function rebuildGameStats<DB>(db: Kysely<DB>) {
  for (const table of ['game_stats_days', 'game_stats_gameplay', 'game_stats_day_players', 'game_stats_players']) {
    await sql`delete from ${sql.table(table)}`.execute(db);
  }
  await sql`insert into game_stats_days (app_id, day, plays, play_ms, players, last_players)
    select app_id, day, count(*), sum(play_ms), 0, 0 from game_sessions group by app_id, day`.execute(db);
  await sql`insert into game_stats_gameplay (app_id, day, bucket, sessions)
    select app_id, day, to_gameplay_ms / ${sql.lit(GAMEPLAY_BUCKET_MS)}, count(*) from game_sessions
    where to_gameplay_ms is not null group by app_id, day, to_gameplay_ms / ${sql.lit(GAMEPLAY_BUCKET_MS)}`.execute(db);
  await sql`insert into game_stats_day_players (app_id, day, user_id)
    select distinct app_id, day, user_id from game_sessions where user_id is not null`.execute(db);
  await sql`insert into game_stats_players (app_id, user_id, last_day)
    select app_id, user_id, max(day) from game_sessions where user_id is not null group by app_id, user_id`.execute(db);
  // Set last, so that the counts are right whether the triggers ran on the inserts above or not;
  // from grouped counts (a correlated count per day read every player of the game each time).
  await sql`update game_stats_days set players = 0, last_players = 0`.execute(db);
  await sql`update game_stats_days set players = c.n
    from (select app_id, day, count(*) as n from game_stats_day_players group by app_id, day) as c
    where c.app_id = game_stats_days.app_id and c.day = game_stats_days.day`.execute(db);
  await sql`update game_stats_days set last_players = c.n
    from (select app_id, last_day, count(*) as n from game_stats_players group by app_id, last_day) as c
    where c.app_id = game_stats_days.app_id and c.last_day = game_stats_days.day`.execute(db);
}

export function gameStatsRollup(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('game_stats_days')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('plays', 'integer', (c) => c.notNull())
        .addColumn('play_ms', 'bigint', (c) => c.notNull())
        .addColumn('players', 'integer', (c) => c.notNull())
        .addColumn('last_players', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('game_stats_days_pk', ['app_id', 'day'])
        .execute();
      await db.schema
        .createTable('game_stats_gameplay')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('bucket', 'integer', (c) => c.notNull())
        .addColumn('sessions', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('game_stats_gameplay_pk', ['app_id', 'day', 'bucket'])
        .execute();
      await db.schema
        .createTable('game_stats_day_players')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('game_stats_day_players_pk', ['app_id', 'day', 'user_id'])
        .execute();
      await db.schema.createIndex('game_stats_day_players_user').on('game_stats_day_players').column('user_id').execute();
      await db.schema
        .createTable('game_stats_players')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('last_day', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('game_stats_players_pk', ['app_id', 'user_id'])
        .execute();
      await db.schema.createIndex('game_stats_players_user').on('game_stats_players').column('user_id').execute();
      await rebuildGameStats(db);
      await createTriggers(kind, db, TRIGGERS);
    },
    async down(db: Kysely<unknown>) {
      await dropTriggers(kind, db, TRIGGERS);
      for (const table of ['game_stats_players', 'game_stats_day_players', 'game_stats_gameplay', 'game_stats_days']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
