import { useMemo } from 'react';
import { Link } from 'react-router';
import type { EarningsBalance, EarningsOverview } from '#common/api/earnings.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { earningsFormat } from './earnings-format.ts';

type Format = ReturnType<typeof earningsFormat>;

/** The Studio's Earnings page (decision 149): balances per currency, the hold and the share, the months. */
export function EarningsScreen({ overview }: { overview: EarningsOverview }) {
  const { t } = useTranslation('earnings');
  const locale = useLocale();
  const format = useMemo(() => earningsFormat(locale), [locale]);
  const { share } = overview;
  return (
    <section className="space-y-6" aria-labelledby="earnings-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h2 id="earnings-title" className="text-xl font-semibold tracking-tight">
            {t('title')}
          </h2>
          <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('intro')}</p>
        </div>
        <Link
          to={localePath(locale, '/studio/earnings/payouts')}
          className="text-sm font-medium text-green-700 underline-offset-4 hover:underline dark:text-green-400"
        >
          {t('payouts')}
        </Link>
      </div>

      <section className="space-y-3" aria-labelledby="earnings-balances">
        <h3 id="earnings-balances" className="text-lg font-semibold">
          {t('balances.title')}
        </h3>
        {overview.balances.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('balances.none')}</p> : null}
        {overview.balances.map((balance) => (
          <Balance key={balance.currency} balance={balance} format={format} />
        ))}
        <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('hold', { count: overview.holdDays })}</p>
        <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">
          {share.custom && share.since
            ? t('share.custom', { percent: format.percent(share.percent), since: format.date(share.since) })
            : t('share.default', { percent: format.percent(share.percent) })}
        </p>
      </section>

      <Months overview={overview} format={format} />
    </section>
  );
}

function Balance({ balance, format }: { balance: EarningsBalance; format: Format }) {
  const { t } = useTranslation('earnings');
  const money = (minor: number) => format.money(minor, balance.currency);
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold">{t('balances.currency', { currency: balance.currency })}</h4>
      <dl aria-label={t('balances.label', { currency: balance.currency })} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label={t('balances.available')} value={money(balance.availableMinor)} hint={t('balances.availableHint')} />
        <Figure
          label={t('balances.pending')}
          value={money(balance.pendingMinor)}
          hint={
            balance.pendingUntil && balance.nextAvailableAt
              ? t('balances.pendingHint', { until: format.date(balance.pendingUntil), next: format.date(balance.nextAvailableAt) })
              : t('balances.pendingNone')
          }
        />
        <Figure label={t('balances.inTransit')} value={money(balance.inTransitMinor)} hint={t('balances.inTransitHint')} />
        <Figure label={t('balances.paidOut')} value={money(balance.paidOutMinor)} hint={t('balances.paidOutHint')} />
      </dl>
    </div>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <div className="rounded-xl border border-zinc-200 p-3 dark:border-zinc-800">
      <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
      <dd className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{hint}</dd>
    </div>
  );
}

function Months({ overview, format }: { overview: EarningsOverview; format: Format }) {
  const { t } = useTranslation('earnings');
  const locale = useLocale();
  return (
    <section className="space-y-3" aria-labelledby="earnings-months">
      <h3 id="earnings-months" className="text-lg font-semibold">
        {t('months.title')}
      </h3>
      {overview.months.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('months.none')}</p>
      ) : (
        <ScrollRegion label={t('months.title')} className="overflow-x-auto rounded-xl border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-sm">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  {t('months.month')}
                </th>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  {t('months.currency')}
                </th>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  {t('months.status')}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  {t('months.closing')}
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.months.map((m) => (
                <tr key={`${m.month} ${m.currency}`} className="border-b border-zinc-100 last:border-0 dark:border-zinc-900">
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    <Link
                      to={localePath(locale, `/studio/earnings/${m.currency}/${m.month}`)}
                      aria-label={t('months.view', { month: format.month(m.month), currency: m.currency })}
                      className="text-green-700 underline-offset-4 hover:underline dark:text-green-400"
                    >
                      {format.month(m.month)}
                    </Link>
                  </th>
                  <td className="px-3 py-2">{m.currency}</td>
                  <td className="px-3 py-2">{m.status === 'closed' ? t('months.closed') : t('months.open')}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{format.money(m.closingMinor, m.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
