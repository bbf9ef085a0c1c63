import { useEffect, useId, useState } from 'react';
import type { BoardInfo, GameRecords, LeaderboardEntry, Period } from '#common/api/game-records.schema.ts';
import { type Locale, localeDefinition } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { api } from '../../lib/api-client.ts';
import { ResponsiveImage } from '../../ui/responsive-image.tsx';
import { SegmentChoice } from '../../ui/segment-choice.tsx';

/** How often an open, visible app page asks for the boards again (the API shares its answer for 5 seconds). */
const POLL_MS = 5_000;
const PERIOD_KEY = { daily: 'daily', weekly: 'weekly', 'all-time': 'allTime' } as const satisfies Record<Period, string>;

/** A score as the board declares it: points, or a time in milliseconds as m:ss.mmm. */
export function formatScore(score: number, format: BoardInfo['format'], locale: Locale): string {
  if (format === 'number') return new Intl.NumberFormat(localeDefinition(locale).language).format(score);
  const sign = score < 0 ? '-' : '';
  const ms = Math.abs(score);
  const minutes = Math.floor(ms / 60_000);
  const seconds = ((ms % 60_000) / 1000).toFixed(3).padStart(6, '0');
  return `${sign}${minutes}:${seconds}`;
}

/**
 * The app page's leaderboards and achievements (decision 092): rendered with the page (the same
 * for everybody, so the page cache keeps holding), then asked for again every few seconds while
 * the page is visible, so scores and counts change without a reload.
 */
export function GameRecordsPanel({ appId, locale, initial }: { appId: number; locale: Locale; initial: GameRecords }) {
  const { t } = useTranslation('games');
  // Newer records belong to the page's data they were fetched after: new loader data starts from its own.
  const [fetched, setFetched] = useState<{ initial: GameRecords; records: GameRecords } | null>(null);
  const records = fetched?.initial === initial ? fetched.records : initial;

  useEffect(() => {
    if (initial.boards.length === 0 && initial.achievements.length === 0) return;
    let controller: AbortController | null = null;
    const refresh = () => {
      if (document.visibilityState !== 'visible') return;
      controller?.abort();
      controller = new AbortController();
      api
        .get(`/game/records/${appId}`, { signal: controller.signal })
        .then((response) => setFetched({ initial, records: response.data }))
        .catch(() => undefined);
    };
    const timer = setInterval(refresh, POLL_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
      controller?.abort();
    };
  }, [appId, initial]);

  const language = localeDefinition(locale).language;
  return (
    <>
      {records.boards.length > 0 && (
        <section aria-labelledby="leaderboards-heading" className="space-y-4" data-testid="leaderboards">
          <h2 id="leaderboards-heading" className="text-lg font-semibold tracking-tight">
            {t('boards.title')}
          </h2>
          <div className="grid gap-4 lg:grid-cols-2">
            {records.boards.map((board) => (
              <BoardCard key={board.id} board={board} locale={locale} />
            ))}
          </div>
        </section>
      )}
      {records.achievements.length > 0 && (
        <section aria-labelledby="achievements-heading" className="space-y-3" data-testid="achievements">
          <h2 id="achievements-heading" className="text-lg font-semibold tracking-tight">
            {t('boards.achievements')}
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {records.achievements.map((a) => (
              <li key={a.id} className="flex gap-3 rounded-xl bg-zinc-50 p-3 dark:bg-zinc-900" data-testid={`achievement-${a.id}`}>
                <AchievementIcon icon={a.icon} />
                <div className="min-w-0 text-sm">
                  <p className="font-medium">{a.name}</p>
                  <p className="text-zinc-600 dark:text-zinc-400">{a.description}</p>
                  <p className="mt-1 text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="achievement-players">
                    {t('boards.players', { count: a.players, formatted: new Intl.NumberFormat(language).format(a.players) })}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** An achievement's icon, or a plain square when the game gave none. */
export function AchievementIcon({ icon }: { icon: string | null }) {
  return icon ? (
    <ResponsiveImage src={icon} width={48} height={48} className="size-12 shrink-0 rounded-lg" />
  ) : (
    <span aria-hidden className="size-12 shrink-0 rounded-lg bg-zinc-200 dark:bg-zinc-700" />
  );
}

function BoardCard({ board, locale }: { board: GameRecords['boards'][number]; locale: Locale }) {
  const { t } = useTranslation('games');
  const id = useId();
  const [period, setPeriod] = useState<Period>(board.periods.includes('all-time') ? 'all-time' : board.periods[0]!);
  const entries = board.tops.find((top) => top.period === period)?.entries ?? [];
  const periodName = (p: Period) => t(`boards.periods.${PERIOD_KEY[p]}`);

  return (
    <div className="space-y-3 rounded-xl bg-zinc-50 p-4 dark:bg-zinc-900" data-testid={`board-${board.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold" id={`${id}-name`}>
          {board.name}
        </h3>
        {board.periods.length > 1 && (
          <SegmentChoice
            kind="tabs"
            compact
            options={board.periods}
            selected={period}
            optionLabel={periodName}
            labelledBy={`${id}-name`}
            idBase={id}
            onSelect={setPeriod}
          />
        )}
      </div>
      <div
        id={`${id}-panel`}
        {...(board.periods.length > 1 ? { role: 'tabpanel', 'aria-labelledby': `${id}-tab-${period}` } : {})}
        data-testid="board-panel"
        data-period={period}
      >
        {entries.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('boards.empty')}</p>
        ) : (
          <table className="w-full text-sm">
            <caption className="sr-only">{t('boards.caption', { board: board.name, period: periodName(period) })}</caption>
            <thead>
              <tr className="text-left text-zinc-500 dark:text-zinc-400">
                <th scope="col" className="w-12 py-1 font-medium">
                  {t('boards.rank')}
                </th>
                <th scope="col" className="py-1 font-medium">
                  {t('boards.player')}
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  {t('boards.score')}
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <EntryRow key={`${entry.rank}-${entry.achievedAt}-${entry.nickname}`} entry={entry} format={board.format} locale={locale} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

function EntryRow({ entry, format, locale }: { entry: LeaderboardEntry; format: BoardInfo['format']; locale: Locale }) {
  const { t } = useTranslation('games');
  return (
    <tr className="border-t border-zinc-200 dark:border-zinc-800">
      <td className="py-1.5 tabular-nums">{entry.rank}</td>
      <td className="max-w-0 truncate py-1.5">
        {entry.nickname ?? t('boards.anonymous')}
        {entry.isGuest && (
          <span className="ml-2 rounded bg-zinc-200 px-1.5 text-xs text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200">{t('boards.guest')}</span>
        )}
      </td>
      <td className="py-1.5 text-right font-medium tabular-nums">{formatScore(entry.score, format, locale)}</td>
    </tr>
  );
}
