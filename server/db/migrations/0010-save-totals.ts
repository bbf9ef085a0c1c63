import { type Kysely, sql } from 'kysely';

/**
 * Each member's total of cloud-save bytes per game, kept in the same transaction as every save,
 * delete and guest merge (decision 082). A save locks this row first, so two saves of different
 * keys at once cannot both pass the 256 KB quota: a sum over the saves, read under PostgreSQL's
 * READ COMMITTED, let them. Existing saves are counted once here.
 */
export function saveTotals() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('game_save_totals')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('total', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('game_save_totals_pk', ['user_id', 'app_id'])
        .execute();
      await sql`INSERT INTO game_save_totals (user_id, app_id, total) SELECT user_id, app_id, SUM(size) FROM game_saves GROUP BY user_id, app_id`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('game_save_totals').ifExists().execute();
    },
  };
}
