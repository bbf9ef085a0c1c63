import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Link } from 'react-router';
import type { AppTileData } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import { focusRing } from '../../ui/focus.ts';
import { cn } from '../../ui/cn.ts';
import { AppTile } from './app-tile.tsx';

export interface AppRowProps {
  id: string;
  title: string;
  apps: AppTileData[];
  locale: Locale;
  /** Where "See all" leads; no link without it. */
  seeAll?: string;
  priority?: boolean;
  withSummary?: boolean;
  /** Extra content after the heading (for example an action). */
  aside?: ReactNode;
}

/**
 * A titled row of tiles. On phones it scrolls sideways (a little of the next tile shows, so it
 * is clear there is more); from 768 px it is one line of a grid, the rest behind "See all".
 */
export function AppRow({ id, title, apps, locale, seeAll, priority = false, withSummary = false, aside }: AppRowProps) {
  const { t } = useTranslation('catalogue');
  if (apps.length === 0) return null;
  return (
    <section aria-labelledby={`${id}-heading`} className="min-w-0" data-testid={`row-${id}`}>
      <div className="mb-3 flex items-baseline justify-between gap-4">
        <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
          {title}
        </h2>
        {aside}
        {seeAll && (
          <Link
            to={seeAll}
            className={cn('shrink-0 rounded text-sm font-medium text-green-700 hover:underline dark:text-green-400', focusRing)}
            aria-label={t('home.seeAllIn', { title })}
          >
            {t('home.seeAll')}
          </Link>
        )}
      </div>
      <ul
        className={cn(
          '-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-3 overflow-x-auto px-4 pb-2 [scrollbar-width:none] md:mx-0 md:grid md:snap-none md:overflow-visible md:px-0 md:pb-0',
          withSummary ? 'md:grid-cols-3' : 'md:grid-cols-4 lg:grid-cols-6',
        )}
      >
        {apps.map((app, index) => (
          <li
            key={app.id}
            className={cn(
              'shrink-0 snap-start',
              withSummary ? 'w-[72%] sm:w-[45%] md:w-auto md:nth-[n+4]:hidden' : 'w-[40%] sm:w-[28%] md:w-auto md:max-lg:nth-[n+5]:hidden lg:nth-[n+7]:hidden',
            )}
          >
            <AppTile app={app} locale={locale} priority={priority && index < 4} withSummary={withSummary} />
          </li>
        ))}
      </ul>
    </section>
  );
}
