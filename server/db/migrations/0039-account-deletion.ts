import type { Kysely } from 'kysely';

/**
 * Account deletion (decision 147): when a member asked to delete the account (closed at once,
 * erased 30 days later unless they sign in again), when a sign-in restored one, and when it was
 * erased (the row stays as an opaque id that kept scores and orders point to).
 */
export function accountDeletion() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('deletion_requested_at', 'text').execute();
      await db.schema.alterTable('users').addColumn('deletion_restored_at', 'text').execute();
      await db.schema.alterTable('users').addColumn('erased_at', 'text').execute();
      await db.schema.createIndex('users_deletion_requested').on('users').column('deletion_requested_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('users_deletion_requested').execute();
      await db.schema.alterTable('users').dropColumn('erased_at').execute();
      await db.schema.alterTable('users').dropColumn('deletion_restored_at').execute();
      await db.schema.alterTable('users').dropColumn('deletion_requested_at').execute();
    },
  };
}
