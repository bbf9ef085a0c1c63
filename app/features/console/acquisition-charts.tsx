import { type FormEvent, type ReactElement, useEffect, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AcquisitionReport } from '#common/api/console-ops.schema.ts';
import type { Locale } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { formatList } from '../../i18n/list-format.ts';
import { api } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { TextField } from '../../ui/form-field.tsx';
import { formatMoney, moneyFormat, toMajorUnits } from '#common/money.ts';
import { cellClass, failureText, headClass, numberHeadClass, tableClass, tableFrame } from './console-format.ts';
import { ScrollRegion } from '../../ui/scroll-region.tsx';

type Row = AcquisitionReport['rows'][number];

/** Bar colours that read on white and on zinc-950 alike (Tailwind green-600, sky-500, amber-500). */
const COLORS = { first: '#16a34a', second: '#0ea5e9', third: '#f59e0b' } as const;

/**
 * The acquisition report (`npm run report -- acquisition`) in the Console (decision 098): bar
 * charts per campaign (sign-ups and members, paid orders, revenue per currency) and the table.
 * Axis texts take the page's colour (currentColor), so they read in either colour mode.
 */
export function AcquisitionCharts() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [since, setSince] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const [report, setReport] = useState<AcquisitionReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    api.get('/console/acquisition/', { query: asked ? { since: asked } : {} }).then(
      ({ data }) => {
        if (!active) return;
        setReport(data);
        setError(null);
      },
      (failure: unknown) => active && setError(failureText(failure, 'since', t('ops.loadFailed'))),
    );
    return () => {
      active = false;
    };
  }, [asked, t]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsked(since || null);
  };

  const rows = report?.rows ?? [];
  const data = rows.map((row) => ({ ...row, label: campaignLabel(row) }));
  const currencies = [...new Set(rows.flatMap((row) => Object.keys(row.revenue)))].sort();

  return (
    <section className="space-y-6" aria-labelledby="console-acquisition-heading">
      <div className="space-y-1">
        <h2 id="console-acquisition-heading" className="text-xl font-semibold tracking-tight">
          {t('ops.acquisition.heading')}
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('ops.acquisition.intro')}</p>
      </div>
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end" data-testid="acquisition-since">
        <TextField label={t('ops.acquisition.since')} name="since" type="date" value={since} onChange={(e) => setSince(e.target.value)} className="sm:w-52" />
        <Button type="submit">{t('ops.acquisition.show')}</Button>
      </form>
      <div aria-live="polite" aria-busy={report === null && !error}>
        {error && <p className="text-red-700 dark:text-red-400">{error}</p>}
        {report && rows.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('ops.acquisition.empty')}</p>}
      </div>
      {rows.length > 0 && (
        <>
          <Chart title={t('ops.acquisition.signUpsChart')} rows={data.length} testId="chart-sign-ups">
            <BarChart data={data} layout="vertical" margin={{ left: 8, right: 16 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
              <XAxis type="number" allowDecimals={false} tick={{ fill: 'currentColor', fontSize: 12 }} stroke="currentColor" />
              <YAxis type="category" dataKey="label" width={150} tick={{ fill: 'currentColor', fontSize: 12 }} stroke="currentColor" />
              <Tooltip content={<ChartTip locale={locale} />} cursor={{ fill: 'currentColor', fillOpacity: 0.08 }} />
              <Legend wrapperStyle={{ color: 'currentColor' }} />
              <Bar dataKey="signUps" name={t('ops.acquisition.signUps')} fill={COLORS.first} />
              <Bar dataKey="members" name={t('ops.acquisition.members')} fill={COLORS.second} />
            </BarChart>
          </Chart>
          <Chart title={t('ops.acquisition.ordersChart')} rows={data.length} testId="chart-orders">
            <BarChart data={data} layout="vertical" margin={{ left: 8, right: 16 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
              <XAxis type="number" allowDecimals={false} tick={{ fill: 'currentColor', fontSize: 12 }} stroke="currentColor" />
              <YAxis type="category" dataKey="label" width={150} tick={{ fill: 'currentColor', fontSize: 12 }} stroke="currentColor" />
              <Tooltip content={<ChartTip locale={locale} />} cursor={{ fill: 'currentColor', fillOpacity: 0.08 }} />
              <Bar dataKey="paidOrders" name={t('ops.acquisition.paidOrders')} fill={COLORS.third} />
            </BarChart>
          </Chart>
          {currencies.map((currency) => (
            <Chart key={currency} title={t('ops.acquisition.revenueChart', { currency })} rows={data.length} testId={`chart-revenue-${currency}`}>
              <BarChart
                data={data.map((row) => ({ label: row.label, revenue: toMajorUnits(row.revenue[currency] ?? 0, currency) }))}
                layout="vertical"
                margin={{ left: 8, right: 16 }}
              >
                <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
                <XAxis type="number" tick={{ fill: 'currentColor', fontSize: 12 }} stroke="currentColor" />
                <YAxis type="category" dataKey="label" width={150} tick={{ fill: 'currentColor', fontSize: 12 }} stroke="currentColor" />
                <Tooltip content={<ChartTip locale={locale} currency={currency} />} cursor={{ fill: 'currentColor', fillOpacity: 0.08 }} />
                <Bar dataKey="revenue" name={t('ops.acquisition.revenue')} fill={COLORS.first} />
              </BarChart>
            </Chart>
          ))}
          <div className="space-y-2">
            <h3 className="text-base font-semibold">{t('ops.acquisition.table')}</h3>
            <ScrollRegion label={t('ops.acquisition.table')} className={tableFrame}>
              <table className={tableClass} data-testid="acquisition-table">
                <thead className="bg-zinc-50 dark:bg-zinc-900">
                  <tr>
                    <th className={headClass}>{t('ops.acquisition.source')}</th>
                    <th className={headClass}>{t('ops.acquisition.medium')}</th>
                    <th className={headClass}>{t('ops.acquisition.campaign')}</th>
                    <th className={numberHeadClass}>{t('ops.acquisition.signUps')}</th>
                    <th className={numberHeadClass}>{t('ops.acquisition.members')}</th>
                    <th className={numberHeadClass}>{t('ops.acquisition.paidOrders')}</th>
                    <th className={numberHeadClass}>{t('ops.acquisition.revenue')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
                  {rows.map((row) => (
                    <tr key={campaignLabel(row)}>
                      <td className={cellClass}>{row.source}</td>
                      <td className={cellClass}>{row.medium}</td>
                      <td className={cellClass}>{row.campaign}</td>
                      <td className={cn(cellClass, 'text-right tabular-nums')}>{row.signUps}</td>
                      <td className={cn(cellClass, 'text-right tabular-nums')}>{row.members}</td>
                      <td className={cn(cellClass, 'text-right tabular-nums')}>{row.paidOrders}</td>
                      <td className={cn(cellClass, 'text-right tabular-nums')}>
                        {formatList(
                          locale,
                          Object.entries(row.revenue).map(([currency, minor]) => formatMoney(minor, currency, locale)),
                        ) || '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </div>
        </>
      )}
    </section>
  );
}

function campaignLabel(row: Row): string {
  return `${row.source} / ${row.medium} / ${row.campaign}`;
}

/** A chart with its heading, as tall as its campaigns need; the text colour is the page's. */
function Chart({ title, rows, testId, children }: { title: string; rows: number; testId: string; children: ReactElement }) {
  return (
    <figure className="space-y-2" data-testid={testId}>
      <figcaption className="text-base font-semibold">{title}</figcaption>
      <div
        className="rounded-xl border border-zinc-200 p-2 text-zinc-700 dark:border-zinc-800 dark:text-zinc-300"
        style={{ height: Math.max(160, rows * 44 + 70) }}
      >
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** The tooltip in the page's colours (light and dark), figures in the locale's digits. */
function ChartTip({
  active,
  payload,
  label,
  locale,
  currency,
}: {
  active?: boolean;
  payload?: { name?: string; value?: number; color?: string }[];
  label?: string;
  locale: Locale;
  currency?: string;
}) {
  const { t } = useTranslation('console');
  if (!active || !payload?.length) return null;
  const number = currency ? moneyFormat(currency, locale) : new Intl.NumberFormat(locale);
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-900 shadow-md dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100">
      <p className="mb-1 font-medium">{label}</p>
      {payload.map((entry) => (
        <p key={entry.name} className="flex items-center gap-2">
          <span className="inline-block size-2.5 rounded-sm" style={{ backgroundColor: entry.color }} aria-hidden />
          {t('common:labelled', { label: entry.name ?? '', value: number.format(entry.value ?? 0) })}
        </p>
      ))}
    </div>
  );
}
