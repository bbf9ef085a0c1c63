import type { ApiRouter } from '#server/http/api-router.ts';
import { WorkspacesSchema } from '#common/api/accounts.schema.ts';
import type { OperatorsService } from '../console/operators.service.ts';
import type { DevelopersService } from '../studio/developers.service.ts';

/**
 * Where a member works besides playing (decision 120): the account menu links to the Studio and
 * the Console only for those who have them. The Studio and Console still check the role on every
 * call; this only saves everyone else a link to a page that would turn them away.
 */
export function workspacesRoutes(api: ApiRouter, roles: { developers: DevelopersService; operators: OperatorsService }): void {
  api.route(
    {
      method: 'GET',
      url: '/member/workspaces/',
      summary: "The caller's Studio and Console",
      description:
        'Whether the caller has a studio profile (the Studio) and is an operator (the Console). A guest has neither. 401 "Token is missing or invalid" without a valid token.',
      tags: ['accounts'],
      auth: 'required',
      response: WorkspacesSchema,
    },
    async ({ caller }) => {
      const [profile, operator] = await Promise.all([roles.developers.profile(caller!.userId), roles.operators.isOperator(caller!.userId)]);
      return { studio: profile !== null, console: operator };
    },
  );
}
