import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { MyAchievements as MyAchievementsData } from '#common/api/game-records.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { useSession } from '../accounts/use-session.ts';
import { AchievementIcon } from './game-records.tsx';

/** My area's achievements (decision 092): what the player unlocked, per game, guests included. */
export function MyAchievements({ locale }: { locale: Locale }) {
  const { t } = useTranslation('games');
  const { token } = useSession();
  const [groups, setGroups] = useState<MyAchievementsData | null>(null);
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    api
      .get('/user/achievements', { signal: controller.signal })
      .then(({ data }) => setGroups(data))
      .catch(() => undefined);
    return () => controller.abort();
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- names come in the page's locale: another locale reads them again
  }, [token, locale]);
  if (!token) return null;
  return (
    <section aria-labelledby="my-achievements-heading" aria-busy={groups === null} className="space-y-3" data-testid="my-achievements">
      <h2 id="my-achievements-heading" className="text-lg font-semibold tracking-tight">
        {t('boards.mine')}
      </h2>
      {groups?.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('boards.mineEmpty')}</p>}
      {groups?.map((group) => (
        <div key={group.app.id} className="space-y-2" data-testid={`my-achievements-${group.app.slug}`}>
          <h3 className="font-medium">
            <Link
              to={localePath(locale, `/app/${group.app.slug}`)}
              className={cn('rounded hover:text-green-700 hover:underline dark:hover:text-green-400', focusRing)}
            >
              {group.app.title}
            </Link>
          </h3>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {group.achievements.map((a) => (
              <li key={a.id} className="flex gap-3 rounded-xl bg-zinc-50 p-3 text-sm dark:bg-zinc-900" data-testid={`my-achievement-${a.id}`}>
                <AchievementIcon icon={a.icon} />
                <div className="min-w-0">
                  <p className="font-medium">{a.name}</p>
                  <p className="text-zinc-600 dark:text-zinc-400">{a.description}</p>
                  {a.unlockedAt && (
                    <p className="mt-1 text-zinc-500 dark:text-zinc-400">{t('boards.unlockedOn', { date: formatDate(a.unlockedAt, locale, 'medium') })}</p>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
