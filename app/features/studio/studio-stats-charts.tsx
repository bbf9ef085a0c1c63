import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StudioStats } from '#common/api/studio-stats.schema.ts';
import type { Locale } from '#common/locales.ts';
import { currencyExponent, toMajorUnits } from '#common/money.ts';
import { useColorMode } from '../../shell/color-mode.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { statsFormat } from './stats-format.ts';

/** Tailwind's zinc and green, as SVG needs plain colours: one set for each colour mode. */
const PALETTE = {
  light: { primary: '#15803d', secondary: '#71717a', grid: '#e4e4e7', text: '#52525b', surface: '#ffffff', border: '#d4d4d8' },
  dark: { primary: '#4ade80', secondary: '#a1a1aa', grid: '#3f3f46', text: '#a1a1aa', surface: '#18181b', border: '#3f3f46' },
};

/**
 * The statistics as charts (recharts; loaded on this page only). They repeat the tables below
 * them, which are what screen readers and keyboards use, so the charts are hidden from assistive
 * technology and take no focus.
 */
function Chart({ title, children }: { title: string; children: React.ReactElement }) {
  return (
    <figure className="rounded-xl border border-zinc-200 p-3 dark:border-zinc-800">
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      <div aria-hidden="true" className="h-56">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

export function StudioStatsCharts({ stats, locale }: { stats: StudioStats; locale: Locale }) {
  const { t } = useTranslation('studio');
  const colors = PALETTE[useColorMode().resolved === 'dark' ? 'dark' : 'light'];
  const format = useMemo(() => statsFormat(locale), [locale]);
  const daily = stats.daily.map((day) => ({ ...day, playSeconds: day.averagePlayMs === null ? null : Math.round(day.averagePlayMs / 100) / 10 }));
  const currencies = [...new Set(stats.sales.map((sale) => sale.currency))];
  const axis = { stroke: colors.grid, tick: { fill: colors.text, fontSize: 12 }, tickLine: false };
  const tooltip = {
    contentStyle: { background: colors.surface, borderColor: colors.border, borderRadius: 8, color: colors.text },
    labelStyle: { color: colors.text },
    labelFormatter: (day: unknown) => (typeof day === 'string' ? format.longDay(day) : ''),
  };
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="stats-charts">
      <p className="sr-only lg:col-span-2">{t('stats.charts.tableNote')}</p>
      <Chart title={t('stats.charts.plays')}>
        <ComposedChart data={daily} accessibilityLayer={false} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid stroke={colors.grid} vertical={false} />
          <XAxis dataKey="day" {...axis} tickFormatter={format.day} minTickGap={16} />
          <YAxis {...axis} allowDecimals={false} tickFormatter={format.number} />
          <Tooltip {...tooltip} formatter={(value) => format.number(Number(value))} />
          <Legend wrapperStyle={{ color: colors.text, fontSize: 12 }} />
          <Bar dataKey="plays" name={t('stats.table.plays')} fill={colors.primary} radius={[3, 3, 0, 0]} isAnimationActive={false} />
          <Line dataKey="players" name={t('stats.table.players')} stroke={colors.secondary} strokeWidth={2} dot={false} isAnimationActive={false} />
        </ComposedChart>
      </Chart>
      <Chart title={t('stats.charts.playTime')}>
        <BarChart data={daily} accessibilityLayer={false} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid stroke={colors.grid} vertical={false} />
          <XAxis dataKey="day" {...axis} tickFormatter={format.day} minTickGap={16} />
          <YAxis {...axis} tickFormatter={format.number} />
          <Tooltip {...tooltip} formatter={(value) => format.seconds(Number(value) * 1000)} />
          <Bar dataKey="playSeconds" name={t('stats.table.averagePlay')} fill={colors.primary} radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </Chart>
      {currencies.map((currency) => {
        const byDay = stats.daily.map((day) => {
          const sales = stats.sales.filter((sale) => sale.day === day.day && sale.currency === currency);
          return {
            day: day.day,
            revenue: toMajorUnits(
              sales.reduce((sum, sale) => sum + sale.revenueMinor, 0),
              currency,
            ),
            refunded: toMajorUnits(
              sales.reduce((sum, sale) => sum + sale.refundedMinor, 0),
              currency,
            ),
          };
        });
        const money = (value: unknown) => format.money(Math.round(Number(value) * 10 ** currencyExponent(currency)), currency);
        return (
          <Chart key={currency} title={t('stats.charts.revenue', { currency })}>
            <BarChart data={byDay} accessibilityLayer={false} margin={{ top: 4, right: 8, bottom: 0, left: -8 }}>
              <CartesianGrid stroke={colors.grid} vertical={false} />
              <XAxis dataKey="day" {...axis} tickFormatter={format.day} minTickGap={16} />
              <YAxis {...axis} tickFormatter={format.number} />
              <Tooltip {...tooltip} formatter={money} />
              <Legend wrapperStyle={{ color: colors.text, fontSize: 12 }} />
              <Bar dataKey="revenue" name={t('stats.table.revenue')} fill={colors.primary} radius={[3, 3, 0, 0]} isAnimationActive={false} />
              <Bar dataKey="refunded" name={t('stats.table.refunded')} fill={colors.secondary} radius={[3, 3, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </Chart>
        );
      })}
    </div>
  );
}
