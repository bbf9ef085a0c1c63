import { Search, Star, StarOff, EyeOff, Eye, History } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ConsoleGame } from '#common/api/console-content.schema.ts';
import type { Build } from '#common/api/studio-builds.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { messageOf } from '../../ui/form-errors.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';

type Shown = 'all' | 'published' | 'unpublished';
const FIELD = 'h-10 rounded-lg border border-zinc-300 bg-white px-3 text-sm dark:border-zinc-700 dark:bg-zinc-900';

/**
 * /console/games: every game, searchable; unpublish or publish again, feature on the home page
 * (decision 099); roll a developer's game back to its previous approved build after a confirmation (decision 097).
 */
export function ConsoleGames() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [q, setQ] = useState('');
  const [shown, setShown] = useState<Shown>('all');
  const [developer, setDeveloper] = useState<'' | 'house'>('');
  const [reason, setReason] = useState('');
  const [games, setGames] = useState<ConsoleGame[] | null>(null);
  const [version, setVersion] = useState(0);
  const { pending, run } = usePendingAction();

  useEffect(() => {
    let active = true;
    const timer = setTimeout(() => {
      api.get('/console/games/', { query: { published: shown, ...(q.trim() ? { q: q.trim() } : {}), ...(developer ? { developer } : {}) } }).then(
        ({ data }) => active && setGames(data.items),
        (failure: unknown) => toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' }),
      );
    }, 200);
    return () => {
      active = false;
      clearTimeout(timer);
    };
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- `version` is the trigger: each change reads the list again
  }, [q, shown, developer, t, version]);

  const change = (game: ConsoleGame, body: { published?: boolean; featured?: boolean }) =>
    run(`${game.id}`, async () => {
      try {
        await api.patch(`/console/games/${game.id}`, { ...body, reason });
        toast.add({ title: t('content.games.done', { title: game.title }), color: 'success' });
        setVersion((n) => n + 1);
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' });
      }
    });

  const rollback = (game: ConsoleGame) =>
    run(`${game.id}`, async () => {
      const confirmed = await confirm({
        title: t('content.games.rollbackTitle', { title: game.title }),
        message: t('content.games.rollbackBody', { version: game.rollbackVersion, live: game.liveVersion }),
        confirmButton: t('content.games.rollbackConfirm'),
        cancelButton: t('content.games.cancel'),
        color: 'warning',
        type: 'warning',
      });
      if (!confirmed) return;
      try {
        const { data } = await api.request<Build>('POST', `/console/games/${game.id}/rollback`, { body: { reason } });
        toast.add({ title: t('content.games.rolledBack', { title: game.title, version: data.version }), color: 'success' });
        setVersion((n) => n + 1);
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' });
      }
    });

  return (
    <section className="space-y-4" data-testid="console-games">
      <h2 className="text-xl font-semibold tracking-tight">{t('nav.games')}</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('content.games.intro')}</p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          {t('content.games.search')}
          <span className="relative">
            <Search className="absolute top-3 left-3 size-4 text-zinc-500" aria-hidden />
            <input type="search" value={q} onChange={(e) => setQ(e.target.value)} className={`${FIELD} w-full pl-9`} data-testid="console-games-search" />
          </span>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t('content.games.show')}
          <select value={shown} onChange={(e) => setShown(e.target.value as Shown)} className={FIELD} data-testid="console-games-shown">
            <option value="all">{t('content.games.all')}</option>
            <option value="published">{t('content.games.published')}</option>
            <option value="unpublished">{t('content.games.unpublished')}</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t('content.games.developer')}
          <select value={developer} onChange={(e) => setDeveloper(e.target.value as '' | 'house')} className={FIELD}>
            <option value="">{t('content.games.anyDeveloper')}</option>
            <option value="house">{t('content.games.house')}</option>
          </select>
        </label>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          {t('content.games.reason')}
          <input value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} className={FIELD} data-testid="console-games-reason" />
        </label>
      </div>
      {games === null ? <p className="text-sm text-zinc-500">{t('content.games.loading')}</p> : null}
      {games?.length === 0 ? <p className="text-sm">{t('content.games.empty')}</p> : null}
      <ul className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {(games ?? []).map((game) => (
          <li key={game.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="console-game" data-slug={game.slug}>
            <div className="min-w-48 flex-1">
              <a href={localePath(locale, `/app/${game.slug}`)} className="font-medium hover:underline">
                {game.title}
              </a>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                {game.slug}
                {game.studio ? ` · ${t('content.games.studio', { name: game.studio.name })}` : ''}
                {game.liveVersion !== null ? ` · ${t('content.games.liveVersion', { version: game.liveVersion })}` : ''}
              </p>
            </div>
            {!game.published ? (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">
                {t('content.games.unpublishedBadge')}
              </span>
            ) : null}
            {game.featured ? (
              <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-900 dark:bg-green-900/40 dark:text-green-200">
                {t('content.games.featuredBadge')}
              </span>
            ) : null}
            {game.rollbackVersion !== null ? (
              <Button size="sm" variant="secondary" disabled={pending !== null} onClick={() => rollback(game)} data-testid="console-game-rollback">
                <History className="size-4" aria-hidden />
                {t('content.games.rollback', { version: game.rollbackVersion })}
              </Button>
            ) : null}
            <Button
              size="sm"
              variant="secondary"
              disabled={pending !== null}
              onClick={() => change(game, { featured: !game.featured })}
              data-testid="console-game-feature"
            >
              {game.featured ? <StarOff className="size-4" aria-hidden /> : <Star className="size-4" aria-hidden />}
              {game.featured ? t('content.games.unfeature') : t('content.games.feature')}
            </Button>
            <Button
              size="sm"
              variant={game.published ? 'danger' : 'primary'}
              disabled={pending !== null}
              onClick={() => change(game, { published: !game.published })}
              data-testid="console-game-publish"
            >
              {game.published ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
              {game.published ? t('content.games.unpublish') : t('content.games.republish')}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
