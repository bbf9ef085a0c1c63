import { useTranslation } from '../../i18n/translation.tsx';
import type { Locale } from '#common/locales.ts';
import { AppGrid } from './app-grid.tsx';
import { type LibraryState, MY_AREA_LIST_LIMIT, useMemberLibrary } from './use-member-library.ts';
import type { AppSummary } from '#common/api/catalogue.schema.ts';

/** My area's game lists: recently played and favourites, each with an empty state. */
export function MyLibrary({ locale }: { locale: Locale }) {
  const { t } = useTranslation('catalogue');
  const played = useMemberLibrary('played', locale, MY_AREA_LIST_LIMIT);
  const favourites = useMemberLibrary('favourite', locale, MY_AREA_LIST_LIMIT);
  return (
    <div className="space-y-10">
      <LibrarySection id="recently-played" title={t('library.recentlyPlayed')} empty={t('library.noPlayed')} state={played} locale={locale} />
      <LibrarySection id="favourites" title={t('library.favourites')} empty={t('library.noFavourites')} state={favourites} locale={locale} />
    </div>
  );
}

function LibrarySection({ id, title, empty, state, locale }: { id: string; title: string; empty: string; state: LibraryState<AppSummary>; locale: Locale }) {
  const { t } = useTranslation('catalogue');
  return (
    <section aria-labelledby={`${id}-heading`} aria-busy={state.status === 'loading'} className="space-y-3" data-testid={`library-${id}`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
        {title}
      </h2>
      {state.status === 'ready' && state.items.length > 0 && <AppGrid apps={state.items} locale={locale} label={title} />}
      {state.status === 'ready' && state.items.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{empty}</p>}
      {state.status === 'failed' && <p className="text-red-700 dark:text-red-400">{t('library.loadFailed')}</p>}
      {(state.status === 'loading' || state.status === 'idle') && (
        // The size of a row of tiles, so that the page does not jump when they arrive.
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 xl:grid-cols-6" aria-hidden="true">
          {Array.from({ length: 2 }, (_, i) => (
            <div key={i} className="aspect-[4/3] animate-pulse rounded-xl bg-zinc-100 motion-reduce:animate-none dark:bg-zinc-800" />
          ))}
        </div>
      )}
    </section>
  );
}
