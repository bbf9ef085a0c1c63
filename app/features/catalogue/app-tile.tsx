import { useTranslation } from '../../i18n/translation.tsx';
import { Link } from 'react-router';
import type { AppTileData } from '#common/api/catalogue.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { focusRing } from '../../ui/focus.ts';
import { ResponsiveImage } from '../../ui/responsive-image.tsx';
import { cn } from '../../ui/cn.ts';

/** Thumbnails are drawn 4:3; tiles show them at most this wide. */
const TILE_WIDTH = 320;
const TILE_HEIGHT = 240;

export interface AppTileProps {
  app: AppTileData;
  locale: Locale;
  /** Visible on arrival: loaded at once instead of lazily. */
  priority?: boolean;
  /** Shows the summary under the title (featured rows). */
  withSummary?: boolean;
  className?: string;
}

/** One game in a grid or row: a fixed 4:3 image box so nothing shifts while it loads, the title under it. */
export function AppTile({ app, locale, priority = false, withSummary = false, className }: AppTileProps) {
  const { t } = useTranslation('catalogue');
  return (
    <Link to={localePath(locale, `/app/${app.slug}`)} className={cn('group block rounded-xl', focusRing, className)} data-testid="app-tile">
      <div className="relative aspect-[4/3] overflow-hidden rounded-xl bg-zinc-100 shadow-sm ring-1 ring-zinc-900/5 transition duration-150 ease-out group-hover:-translate-y-0.5 group-hover:shadow-md dark:bg-zinc-800 dark:ring-white/10">
        <ResponsiveImage src={app.thumbnail} width={TILE_WIDTH} height={TILE_HEIGHT} priority={priority} className="size-full object-cover" />
        {app.type === 'app' && (
          <span className="absolute top-2 left-2 rounded-md bg-zinc-900/75 px-1.5 py-0.5 text-xs font-medium text-white">{t('type.app')}</span>
        )}
      </div>
      <p className="mt-2 truncate text-sm font-medium text-zinc-900 group-hover:text-green-700 dark:text-zinc-100 dark:group-hover:text-green-400">
        {app.title}
      </p>
      {withSummary && <p className="mt-0.5 line-clamp-2 text-sm text-zinc-600 dark:text-zinc-400">{app.summary}</p>}
    </Link>
  );
}
