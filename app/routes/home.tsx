import { useTranslation } from '../i18n/translation.tsx';
import { localePath } from '#common/locales.ts';
import { appContext } from '../context.ts';
import { AppRow } from '../features/catalogue/app-row.tsx';
import { CategoryChips } from '../features/catalogue/category-chips.tsx';
import { RecentlyPlayedRow } from '../features/catalogue/recently-played-row.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import { trackPageView } from '../middleware/tracking.ts';
import type { Route } from './+types/home';

/** The named tracking middleware (spec section 2). */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [trackPageView];
export async function loader({ request, context }: Route.LoaderArgs) {
  const { locale, t } = loaderT(request);
  const { services } = context.get(appContext);
  const home = await services.catalogue.home(locale);
  return { locale, ...home, title: t('pages.home'), description: t('catalogue:home.description') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? 'Home'),
  { name: 'description', content: loaderData?.description ?? '' },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('catalogue');
  const { locale, featured, popular, newest, categories } = loaderData;
  return (
    <div className="space-y-8">
      <div className="space-y-3">
        <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">{t('home.heading')}</h1>
        <CategoryChips categories={categories} locale={locale} />
      </div>
      <AppRow id="featured" title={t('home.featured')} apps={featured} locale={locale} priority withSummary />
      <AppRow
        id="popular"
        title={t('home.popular')}
        apps={popular}
        locale={locale}
        seeAll={localePath(locale, '/categories?sort=popular')}
        priority={featured.length === 0}
      />
      <AppRow id="newest" title={t('home.newest')} apps={newest} locale={locale} seeAll={localePath(locale, '/categories?sort=newest')} />
      {/* Last: it is filled in by the browser for the visitor (decision 066), so it moves nothing already on screen. */}
      <RecentlyPlayedRow locale={locale} />
    </div>
  );
}
