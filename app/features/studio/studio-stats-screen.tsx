import { Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { API_BASE } from '#common/constants.ts';
import { STATS_RANGES, type StudioStats } from '#common/api/studio-stats.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { useBrowserCapability } from '../../lib/use-browser-capability.ts';
import { Button } from '../../ui/button.tsx';
import { onDemand } from '../../ui/deferred.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { SegmentChoice } from '../../ui/segment-choice.tsx';
import { session } from '../accounts/session.ts';
import { statsFormat } from './stats-format.ts';

/** The charts (and recharts with them) load in the browser on this page only, never with other pages. */
const { Component: StatsCharts } = onDemand(async () => (await import('./studio-stats-charts.tsx')).StudioStatsCharts);

const isBrowser = () => true;
const cell = 'px-3 py-2 text-right tabular-nums whitespace-nowrap';
const headCell = 'px-3 py-2 text-right font-medium whitespace-nowrap';

/** A developer's statistics of one game (decision 101): range, summary, charts, the same figures as tables, CSV. */
export function StudioStatsScreen({ stats }: { stats: StudioStats }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const format = useMemo(() => statsFormat(locale), [locale]);
  const inBrowser = useBrowserCapability(isBrowser);
  const { summary } = stats;

  return (
    <section className="space-y-6" aria-labelledby="stats-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h2 id="stats-title" className="text-xl font-semibold tracking-tight">
            {t('stats.title')}
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('stats.intro')}</p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('stats.rangeOf', { from: format.longDay(stats.from), to: format.longDay(stats.to) })}</p>
        </div>
        <CsvButton gameId={stats.appId} days={stats.days} />
      </div>

      <SegmentChoice
        kind="links"
        label={t('stats.range.label')}
        options={STATS_RANGES}
        selected={stats.days}
        optionLabel={(days) => t('stats.range.days', { count: days })}
        href={(days) => `?days=${days}`}
      />

      <dl aria-label={t('stats.summary.label')} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        <Figure label={t('stats.summary.plays')} value={format.number(summary.plays)} />
        <Figure label={t('stats.summary.players')} value={format.number(summary.players)} />
        <Figure label={t('stats.summary.averagePlay')} value={format.seconds(summary.averagePlayMs)} />
        <Figure label={t('stats.summary.toGameplay')} value={format.seconds(summary.medianToGameplayMs)} />
        <Figure
          label={t('stats.summary.newPlayers')}
          value={format.number(summary.newPlayers)}
          hint={t('stats.summary.newPlayersHint', { members: format.number(summary.newMembers) })}
        />
        <Figure
          label={t('stats.summary.revenue')}
          value={summary.money.length ? summary.money.map((money) => format.money(money.revenueMinor, money.currency)).join(' · ') : t('stats.summary.none')}
          hint={summary.money.map((money) => t('stats.summary.ordersCount', { count: money.orders })).join(' · ') || undefined}
        />
        <Figure
          label={t('stats.summary.refunds')}
          value={summary.money.length ? summary.money.map((money) => format.money(money.refundedMinor, money.currency)).join(' · ') : t('stats.summary.none')}
          hint={summary.money.map((money) => t('stats.summary.refundsCount', { count: money.refunds })).join(' · ') || undefined}
        />
      </dl>

      {summary.plays === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('stats.empty')}</p> : null}

      {/* Charts are drawn in the browser (they need its width); until then and without scripts the tables say it all. */}
      {inBrowser ? <StatsCharts stats={stats} locale={locale} /> : <div className="min-h-60" />}

      <DailyTable stats={stats} format={format} />
      <SalesTable stats={stats} format={format} />
    </section>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string | undefined }) {
  return (
    <div className="rounded-xl border border-zinc-200 p-3 dark:border-zinc-800">
      <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
      {hint ? <dd className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{hint}</dd> : null}
    </div>
  );
}

type Format = ReturnType<typeof statsFormat>;

/** A table that scrolls sideways on a phone, reachable by keyboard while it does (decision 121). */
function TableRegion({ id, caption, children }: { id: string; caption: string; children: React.ReactNode }) {
  return (
    <ScrollRegion label={caption} className="overflow-x-auto rounded-xl border border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-sm">
        <caption id={id} className="px-3 py-2 text-left font-semibold">
          {caption}
        </caption>
        {children}
      </table>
    </ScrollRegion>
  );
}

function DailyTable({ stats, format }: { stats: StudioStats; format: Format }) {
  const { t } = useTranslation('studio');
  return (
    <TableRegion id="stats-daily" caption={t('stats.table.daily')}>
      <thead className="border-y border-zinc-200 bg-zinc-50 text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400">
        <tr>
          <th scope="col" className="px-3 py-2 text-left font-medium">
            {t('stats.table.day')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.plays')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.players')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.averagePlay')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.toGameplay')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.newPlayers')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.newMembers')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {stats.daily.toReversed().map((day) => (
          <tr key={day.day}>
            <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">
              <time dateTime={day.day}>{format.longDay(day.day)}</time>
            </th>
            <td className={cell}>{format.number(day.plays)}</td>
            <td className={cell}>{format.number(day.players)}</td>
            <td className={cell}>{format.seconds(day.averagePlayMs)}</td>
            <td className={cell}>{format.seconds(day.medianToGameplayMs)}</td>
            <td className={cell}>{format.number(day.newPlayers)}</td>
            <td className={cell}>{format.number(day.newMembers)}</td>
          </tr>
        ))}
      </tbody>
    </TableRegion>
  );
}

function SalesTable({ stats, format }: { stats: StudioStats; format: Format }) {
  const { t } = useTranslation('studio');
  if (stats.sales.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('stats.table.noSales')}</p>;
  return (
    <TableRegion id="stats-sales" caption={t('stats.table.sales')}>
      <thead className="border-y border-zinc-200 bg-zinc-50 text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400">
        <tr>
          <th scope="col" className="px-3 py-2 text-left font-medium">
            {t('stats.table.day')}
          </th>
          <th scope="col" className="px-3 py-2 text-left font-medium">
            {t('stats.table.item')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.orders')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.revenue')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.refunds')}
          </th>
          <th scope="col" className={headCell}>
            {t('stats.table.refunded')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {stats.sales.toReversed().map((sale) => (
          <tr key={`${sale.day}/${sale.sku}/${sale.currency}`}>
            <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">
              <time dateTime={sale.day}>{format.longDay(sale.day)}</time>
            </th>
            <td className="px-3 py-2">{sale.itemName}</td>
            <td className={cell}>{format.number(sale.orders)}</td>
            <td className={cell}>{format.money(sale.revenueMinor, sale.currency)}</td>
            <td className={cell}>{format.number(sale.refunds)}</td>
            <td className={cell}>{format.money(sale.refundedMinor, sale.currency)}</td>
          </tr>
        ))}
      </tbody>
    </TableRegion>
  );
}

/**
 * Downloads the CSV export. The API takes the session only as a bearer token, so the file is
 * fetched by script and handed to the browser as a download.
 */
function CsvButton({ gameId, days }: { gameId: number; days: number }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  async function download() {
    setState('busy');
    try {
      const token = session.snapshot().token;
      const response = await fetch(`${API_BASE}/studio/games/${gameId}/stats/csv?days=${days}&locale=${locale}`, {
        credentials: 'include',
        headers: { Locale: locale, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
      if (!response.ok) throw new Error(`CSV export answered ${response.status}`);
      const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? `game-${gameId}-stats.csv`;
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState('idle');
    } catch {
      setState('failed');
    }
  }
  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="secondary" size="sm" onClick={() => void download()} disabled={state === 'busy'}>
        <Download aria-hidden="true" />
        {state === 'busy' ? t('stats.downloading') : t('stats.download')}
      </Button>
      <output className="text-xs text-red-700 dark:text-red-400">{state === 'failed' ? t('stats.downloadFailed') : ''}</output>
    </div>
  );
}
