import { CURRENCY_PATTERN, MONTH_PATTERN } from '#common/api/earnings.schema.ts';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { StatementScreen } from '../features/earnings/statement-screen.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { invalidParameter, orPageNotFound, pageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/studio-earnings-statement';

/** /studio/earnings/:currency/:month: one of the studio's monthly statements (decision 149), its own studio only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!CURRENCY_PATTERN.test(params.currency) || !MONTH_PATTERN.test(params.month)) invalidParameter(request);
  const { userInfo } = await context.get(pageSessionContext)();
  const { developers, earnings } = context.get(appContext).services;
  // A member without a studio has no statements: the same answer as a month that is not theirs.
  if (!userInfo || !(await developers.profile(userInfo.uid))) pageNotFound(request);
  const statement = await orPageNotFound(
    request,
    earnings.statementFor({ userId: userInfo.uid, tokenId: 0 }, params.currency, params.month, loaderT(request).locale),
  );
  return { statement };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <StatementScreen statement={loaderData.statement} />;
}
