import type { Kysely } from 'kysely';

/**
 * The device id (a random value the browser keeps) recorded with a guest's fingerprint: device
 * sign-in needs both (decision 081). Guests recorded before have none, so device sign-in no longer
 * reaches them until their browser records its device again, which it does on its next page.
 */
export function deviceId() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('device_id_hash', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('device_id_hash').execute();
    },
  };
}
