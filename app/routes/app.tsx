import { Play } from 'lucide-react';
import { useTranslation } from '../i18n/translation.tsx';
import { Link } from 'react-router';
import { localeDefinition, localePath } from '#common/locales.ts';
import { isValidSlug } from '#common/route-rules.ts';
import { appContext } from '../context.ts';
import { AppRow } from '../features/catalogue/app-row.tsx';
import { GameRecordsPanel } from '../features/games/game-records.tsx';
import { FavouriteButton } from '../features/catalogue/favourite-button.tsx';
import { appSocialMeta, appStructuredData } from '../features/catalogue/structured-data.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { formatDate } from '../lib/format-date.ts';
import { pageTitle } from '../lib/meta.ts';
import { invalidParameter, orPageNotFound } from '../lib/route-errors.ts';
import { useRootData } from '../shell/root-data.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import { ResponsiveImage } from '../ui/responsive-image.tsx';
import { trackPageView } from '../middleware/tracking.ts';
import type { Route } from './+types/app';

/** The named tracking middleware (spec section 2). */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [trackPageView];
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isValidSlug(params.slug)) invalidParameter(request);
  const { locale } = loaderT(request);
  const { services, site } = context.get(appContext);
  const app = await orPageNotFound(request, services.catalogue.info(locale, params.slug));
  // Boards and achievement counts are the same for everybody: the page stays cacheable (decision 066), the panel polls for newer ones.
  const records = await services.records.records(locale, app.id);
  return {
    locale,
    app,
    records,
    // Written here, not in the browser: its first Intl formatter costs a slow phone about 50 ms (decision 078).
    released: formatDate(app.releasedAt, locale, 'medium'),
    plays: new Intl.NumberFormat(localeDefinition(locale).language).format(app.playCount),
    origin: site.publicOrigin,
    productName: site.productName,
    structuredData: appStructuredData(app, site.publicOrigin, locale),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData ? [pageTitle(matches, loaderData.app.title), ...appSocialMeta(loaderData.app, loaderData.origin, loaderData.locale, loaderData.productName)] : [];

export default function AppPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('catalogue');
  const root = useRootData();
  const { locale, app, released, plays, structuredData, records } = loaderData;
  const playHref = localePath(locale, `/play/${app.slug}`);

  return (
    <article className="space-y-10" data-testid="app-page">
      <script
        type="application/ld+json"
        nonce={root?.nonce}
        suppressHydrationWarning
        // "<" escaped: a title cannot close the script element.
        dangerouslySetInnerHTML={{ __html: JSON.stringify(structuredData).replace(/</g, '\\u003c') }}
      />
      <div className="grid gap-6 md:grid-cols-[minmax(0,5fr)_minmax(0,6fr)] md:gap-10">
        <div className="aspect-[4/3] overflow-hidden rounded-2xl bg-zinc-100 shadow-sm ring-1 ring-zinc-900/5 dark:bg-zinc-800 dark:ring-white/10">
          <ResponsiveImage
            src={app.thumbnail}
            width={640}
            height={480}
            priority
            alt={app.title}
            className="size-full object-cover"
            sizes="(min-width: 768px) 45vw, 100vw"
          />
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="rounded-md bg-green-50 px-2 py-0.5 font-medium text-green-800 dark:bg-green-950 dark:text-green-300">{t(`type.${app.type}`)}</span>
            {app.categories.map((category) => (
              <Link
                key={category.slug}
                to={localePath(locale, `/categories/${category.slug}`)}
                className={cn('rounded text-zinc-600 hover:text-green-700 hover:underline dark:text-zinc-400 dark:hover:text-green-400', focusRing)}
              >
                {category.title}
              </Link>
            ))}
          </div>
          <h1 className="text-3xl font-bold tracking-tight">{app.title}</h1>
          <p className="text-lg text-zinc-700 dark:text-zinc-300">{app.summary}</p>
          <div className="flex items-center gap-3">
            <Button asChild size="lg" className="grow sm:grow-0">
              <Link to={playHref} data-testid="play-button">
                <Play className="fill-current" />
                {t(app.type === 'game' ? 'app.play' : 'app.open')}
              </Link>
            </Button>
            <FavouriteButton appId={app.id} />
          </div>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-xl bg-zinc-50 p-4 text-sm sm:grid-cols-3 dark:bg-zinc-900">
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">{t('app.plays')}</dt>
              <dd className="font-medium tabular-nums">{plays}</dd>
            </div>
            <div>
              <dt className="text-zinc-500 dark:text-zinc-400">{t('app.released')}</dt>
              <dd className="font-medium">{released}</dd>
            </div>
            {app.developer && (
              <div>
                <dt className="text-zinc-500 dark:text-zinc-400">{t('app.developer')}</dt>
                <dd className="font-medium" data-testid="app-developer">
                  {app.developer}
                </dd>
              </div>
            )}
            <div className="col-span-2 sm:col-span-3">
              <dt className="sr-only">{t('app.details')}</dt>
              <dd className="text-zinc-600 dark:text-zinc-400">{t(`app.orientation.${app.orientation}`)}</dd>
            </div>
          </dl>
          {app.tags.length > 0 && (
            <div>
              <h2 className="sr-only">{t('app.tags')}</h2>
              <ul className="flex flex-wrap gap-2" data-testid="app-tags">
                {app.tags.map((tag) => (
                  <li key={tag.slug}>
                    <Link
                      to={localePath(locale, `/search?tag=${tag.slug}`)}
                      className={cn(
                        'inline-block rounded-full border border-zinc-200 px-3 py-1 text-sm text-zinc-700 hover:border-green-600 hover:text-green-800 dark:border-zinc-700 dark:text-zinc-300 dark:hover:border-green-500 dark:hover:text-green-300',
                        focusRing,
                      )}
                    >
                      #{tag.title}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>

      {app.screenshots.length > 0 && (
        <section aria-labelledby="screenshots-heading" className="space-y-3">
          <h2 id="screenshots-heading" className="text-lg font-semibold tracking-tight">
            {t('app.screenshots')}
          </h2>
          <ul className="-mx-4 flex snap-x gap-3 overflow-x-auto px-4 pb-2">
            {app.screenshots.map((src, index) => (
              <li key={src} className="w-[80%] shrink-0 snap-start sm:w-[45%] lg:w-[30%]">
                <ResponsiveImage
                  src={src}
                  width={app.width >= app.height ? 480 : 270}
                  height={app.width >= app.height ? Math.round((480 * app.height) / app.width) : 480}
                  alt={t('app.screenshotAlt', { number: index + 1, title: app.title })}
                  className="h-auto w-full rounded-xl bg-zinc-100 object-cover ring-1 ring-zinc-900/5 dark:bg-zinc-800 dark:ring-white/10"
                />
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="about-heading" className="space-y-2">
          <h2 id="about-heading" className="text-lg font-semibold tracking-tight">
            {t('app.about')}
          </h2>
          <p className="leading-relaxed whitespace-pre-line text-zinc-700 dark:text-zinc-300">{app.description}</p>
        </section>
        {app.instructions && (
          <section aria-labelledby="how-heading" className="space-y-2">
            <h2 id="how-heading" className="text-lg font-semibold tracking-tight">
              {t('app.howToPlay')}
            </h2>
            <p className="leading-relaxed whitespace-pre-line text-zinc-700 dark:text-zinc-300">{app.instructions}</p>
          </section>
        )}
      </div>

      <GameRecordsPanel appId={app.id} locale={locale} initial={records} />

      <AppRow id="similar" title={t('app.similar')} apps={app.similar} locale={locale} />
    </article>
  );
}
