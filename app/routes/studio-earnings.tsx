import { Link } from 'react-router';
import { localePath } from '#common/locales.ts';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { EarningsScreen } from '../features/earnings/earnings-screen.tsx';
import { useTranslation } from '../i18n/translation.tsx';
import { useLocale } from '../i18n/use-locale.ts';
import type { Route } from './+types/studio-earnings';

/** /studio/earnings: the studio's balances, share and monthly statements (decision 149); the server checks the studio again. */
export async function loader({ context }: Route.LoaderArgs) {
  const { userInfo } = await context.get(pageSessionContext)();
  const { developers, earnings } = context.get(appContext).services;
  if (!(await developers.profile(userInfo!.uid))) return { overview: null };
  return { overview: await earnings.overview({ userId: userInfo!.uid, tokenId: 0 }) };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('earnings');
  const locale = useLocale();
  if (loaderData.overview) return <EarningsScreen overview={loaderData.overview} />;
  return (
    <section className="space-y-3" aria-labelledby="earnings-title">
      <h2 id="earnings-title" className="text-xl font-semibold tracking-tight">
        {t('title')}
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noStudio')}</p>
      <Link to={localePath(locale, '/studio')} className="text-sm font-medium text-green-700 underline-offset-4 hover:underline dark:text-green-400">
        {t('createProfile')}
      </Link>
    </section>
  );
}
