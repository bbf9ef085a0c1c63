import { Link } from 'react-router';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../i18n/translation.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/account-deletion';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.accountDeletion'), description: t('accounts:deletionPage.description') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  ...(loaderData?.description ? [{ name: 'description', content: loaderData.description }] : []),
];

/**
 * How to delete a Playport account (decision 147), for anyone, signed in or not: app stores and
 * the privacy policy link here. The steps, what goes, what stays and for how long.
 */
export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const link = 'font-medium underline underline-offset-2';
  return (
    <article className="mx-auto max-w-2xl space-y-6" data-testid="account-deletion-page">
      <h1 className="text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      <p>{t('deletionPage.intro')}</p>
      <section aria-labelledby="deletion-steps" className="space-y-2">
        <h2 id="deletion-steps" className="text-lg font-semibold">
          {t('deletionPage.stepsTitle')}
        </h2>
        <ol className="list-decimal space-y-1 pl-5">
          <li>
            <Link to={localePath(locale, '/login')} className={link}>
              {t('deletionPage.step1')}
            </Link>
          </li>
          <li>
            <Link to={localePath(locale, '/user/profile/delete')} className={link}>
              {t('deletionPage.step2')}
            </Link>
          </li>
          <li>{t('deletionPage.step3')}</li>
        </ol>
      </section>
      <section aria-labelledby="deletion-after" className="space-y-2">
        <h2 id="deletion-after" className="text-lg font-semibold">
          {t('deletionPage.afterTitle')}
        </h2>
        <ul className="list-disc space-y-1 pl-5">
          <li>{t('deletionPage.closed')}</li>
          <li>{t('deletionPage.grace')}</li>
          <li>{t('deletionPage.erased')}</li>
          <li>{t('deletionPage.kept')}</li>
          <li>{t('deletionPage.studios')}</li>
          <li>{t('deletionPage.developers')}</li>
        </ul>
      </section>
      <section aria-labelledby="deletion-help" className="space-y-2">
        <h2 id="deletion-help" className="text-lg font-semibold">
          {t('deletionPage.helpTitle')}
        </h2>
        <p>{t('deletionPage.help')}</p>
        <p>
          <Link to={localePath(locale, '/privacy-policy')} className={link}>
            {t('deletionPage.privacy')}
          </Link>
        </p>
      </section>
    </article>
  );
}
