import { AccountDeletionBodySchema, AccountDeletionRequestedSchema, AccountDeletionSchema } from '#common/api/account-deletion.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { AccountDeletionService } from './account-deletion.service.ts';

const TAGS = ['accounts'];

/** Deleting one's own account (decision 147). */
export function accountDeletionRoutes(api: ApiRouter, deletion: AccountDeletionService): void {
  api.route(
    {
      method: 'GET',
      url: '/user/account-deletion/',
      summary: 'What deleting the account means for the caller',
      description:
        'The grace period in days, how many published games the caller is the developer of (they stay listed), whether deleting asks for the password, ' +
        'and, within a day of a sign-in that restored the account after a deletion request, when that was.',
      tags: TAGS,
      auth: 'required',
      response: AccountDeletionSchema,
    },
    ({ caller }) => deletion.status(caller!),
  );

  api.route(
    {
      method: 'POST',
      url: '/user/account-deletion/',
      summary: "Delete the caller's account",
      description:
        "Members only (403 for a guest). Needs the account's current password (422 when wrong, limited to 10 an hour), or for an account without one a sign-in of the last " +
        '10 minutes (403 `forbidden`, reason `reauthentication_required`). The account is closed at once: every session ends (this one too), and it is hidden from ' +
        'leaderboards. Signing in again within 30 days restores it; after them it is erased, and games whose backends knew the player get a `player.deleted` webhook.',
      tags: TAGS,
      auth: 'required',
      body: AccountDeletionBodySchema,
      response: AccountDeletionRequestedSchema,
    },
    ({ caller, body }) => deletion.requestDeletion(caller!, body.currentPassword),
  );
}
