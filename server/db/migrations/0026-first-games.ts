import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { createTriggers, dropTriggers, type Trigger } from './helpers.ts';

/**
 * Each account's first game (decision 104): `users.first_app_id` and `users.first_played_at` are
 * the played-history row with the earliest first play (ties go to the lower game id), kept by
 * triggers on `played_games` in the same statement as every write of it: a first play, the guest
 * merge (which moves a guest's earlier first plays onto the member) and removals. The Studio's
 * "new players" read them through one index instead of comparing every first play of a game with
 * the account's other games. The same trigger statements on SQLite and PostgreSQL.
 */

/** Sets a user's first game from the played history again (after a change that may have moved it). */
const recount = (user: string, also = 'true') =>
  `update users set
     first_app_id = (select p.app_id from played_games p where p.user_id = users.id order by p.first_played_at, p.app_id limit 1),
     first_played_at = (select min(p.first_played_at) from played_games p where p.user_id = users.id)
   where users.id = ${user} and ${also}`;

const TRIGGERS: Trigger[] = [
  {
    // A first play of another game: it is the account's first game only if it is earlier.
    name: 'first_game_added',
    event: 'after insert on played_games',
    when: 'true',
    body: [
      `update users set first_app_id = new.app_id, first_played_at = new.first_played_at
       where users.id = new.user_id and (users.first_played_at is null or users.first_played_at > new.first_played_at
         or (users.first_played_at = new.first_played_at and users.first_app_id > new.app_id))`,
    ],
  },
  {
    name: 'first_game_changed',
    event: 'after update of user_id, app_id, first_played_at on played_games',
    when: 'true',
    body: [recount('new.user_id'), recount('old.user_id', 'old.user_id <> new.user_id')],
  },
  {
    name: 'first_game_removed',
    event: 'after delete on played_games',
    when: 'true',
    body: [recount('old.user_id', 'users.first_app_id = old.app_id')],
  },
];

/** Sets every account's first game from the played history (the backfill, and generated data loaded with triggers off). */
export async function rebuildFirstGames<DB>(db: Kysely<DB>) {
  await sql`update users set first_app_id = null, first_played_at = null where first_app_id is not null`.execute(db);
  await sql`update users set first_app_id = f.app_id, first_played_at = f.first_played_at
    from (select user_id, app_id, first_played_at, row_number() over (partition by user_id order by first_played_at, app_id) as n from played_games) as f
    where f.user_id = users.id and f.n = 1`.execute(db);
}

export function firstGames(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('first_app_id', 'integer').execute();
      await db.schema.alterTable('users').addColumn('first_played_at', 'text').execute();
      await rebuildFirstGames(db);
      // Covers the Studio's query: a game's new accounts in a range of days, and which are members.
      await db.schema.createIndex('users_first_app').on('users').columns(['first_app_id', 'first_played_at', 'is_guest']).execute();
      await createTriggers(kind, db, TRIGGERS);
    },
    async down(db: Kysely<unknown>) {
      await dropTriggers(kind, db, TRIGGERS);
      await db.schema.dropIndex('users_first_app').execute();
      await db.schema.alterTable('users').dropColumn('first_played_at').execute();
      await db.schema.alterTable('users').dropColumn('first_app_id').execute();
    },
  };
}
