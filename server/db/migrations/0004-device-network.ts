import type { Kysely } from 'kysely';

/**
 * The network (IPv4 /24, IPv6 /48) a guest account was last used from: device sign-in reaches
 * a guest only from there (decision 052), and the clean-up of unused guests reads when it was
 * last seen.
 */
export function deviceNetwork() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('last_network', 'text').execute();
      await db.schema.alterTable('users').addColumn('last_seen_at', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('last_seen_at').execute();
      await db.schema.alterTable('users').dropColumn('last_network').execute();
    },
  };
}
