import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { localePath } from '#common/locales.ts';
import type { StudioGameSummary } from '#common/api/studio.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { formatDate } from '../../lib/format-date.ts';
import { Button } from '../../ui/button.tsx';

/** The developer's games, each a link to its details, and the way to a new one. */
export function GameList({ games }: { games: StudioGameSummary[] }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  return (
    <section className="space-y-4" aria-labelledby="studio-games-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="studio-games-title" className="text-xl font-semibold tracking-tight">
          {t('games.list.title')}
        </h2>
        <Button asChild>
          <Link to={localePath(locale, '/studio/games/new')}>
            <Plus aria-hidden />
            {t('games.list.new')}
          </Link>
        </Button>
      </div>
      {games.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('games.list.empty')}</p>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid="studio-game-list">
          {games.map((game) => (
            <li key={game.id}>
              <Link
                to={localePath(locale, `/studio/games/${game.id}`)}
                className="flex items-center gap-3 p-3 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-green-700 dark:hover:bg-zinc-900"
              >
                {game.thumbnail ? (
                  <img src={game.thumbnail} alt="" width={64} height={48} className="h-12 w-16 shrink-0 rounded-md object-cover" />
                ) : (
                  <span className="flex h-12 w-16 shrink-0 items-center justify-center rounded-md bg-zinc-100 text-center text-[10px] text-zinc-500 dark:bg-zinc-800">
                    {t('games.list.noThumbnail')}
                  </span>
                )}
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">{game.title}</span>
                  <span className="block truncate text-sm text-zinc-600 dark:text-zinc-400">
                    /{game.slug} · {t('games.list.updated', { date: formatDate(game.updatedAt, locale) })}
                  </span>
                </span>
                <span className="shrink-0 rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium dark:bg-zinc-800">
                  {t(game.published ? 'games.list.published' : 'games.list.draft')}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
