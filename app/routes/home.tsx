import { useTranslation } from 'react-i18next';
import { MESSAGES } from '#common/i18n/resources.ts';
import { appContext } from '../context.ts';
import { AppTile } from '../features/catalogue/app-tile.tsx';
import { localeOfPath } from '../lib/locale.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/home';

export async function loader({ request, context }: Route.LoaderArgs) {
  const locale = localeOfPath(new URL(request.url).pathname);
  const { services } = context.get(appContext);
  const popular = await services.catalogue.list(locale, { sort: 'popular', limit: 24 });
  return { locale, popular: popular.items, title: MESSAGES[locale].common.home };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? 'Home')];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { popular, locale } = loaderData;
  return (
    <section aria-labelledby="popular-heading">
      <h1 id="popular-heading" className="mb-4 text-xl font-semibold">
        {t('allGames')}
      </h1>
      <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6" data-testid="app-grid">
        {popular.map((app, index) => (
          <li key={app.id}>
            <AppTile app={app} locale={locale} eager={index < 6} />
          </li>
        ))}
      </ul>
    </section>
  );
}
