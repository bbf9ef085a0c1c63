import type { Kysely } from 'kysely';

/**
 * When a guest's device fingerprint was recorded. The browser records it once the page has been
 * idle for a while rather than at sign-up (decision 066), so device sign-in picks the guest whose
 * fingerprint was recorded first: a guest that records another's fingerprint later never shadows
 * it (decision 052). Existing guests recorded theirs at creation.
 */
export function deviceRecordedAt() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('fingerprint_at', 'text').execute();
      await (db as Kysely<{ users: { fingerprint_at: string | null; created_at: string; fingerprint_hash: string | null } }>)
        .updateTable('users')
        .set((eb) => ({ fingerprint_at: eb.ref('created_at') }))
        .where('fingerprint_hash', 'is not', null)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('fingerprint_at').execute();
    },
  };
}
