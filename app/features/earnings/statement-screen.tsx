import { Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { API_BASE } from '#common/constants.ts';
import type { EarningsStatement } from '#common/api/earnings.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { Button } from '../../ui/button.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { session } from '../accounts/session.ts';
import { earningsFormat } from './earnings-format.ts';

const cell = 'px-3 py-2 text-right tabular-nums whitespace-nowrap';
const headCell = 'px-3 py-2 text-right font-medium whitespace-nowrap';

/** A monthly statement (decision 149): closed or open, its totals, its lines per game and item, CSV. */
export function StatementScreen({ statement }: { statement: EarningsStatement }) {
  const { t } = useTranslation('earnings');
  const locale = useLocale();
  const format = useMemo(() => earningsFormat(locale), [locale]);
  const money = (minor: number) => format.money(minor, statement.currency);
  const lastDay = new Date(Date.parse(statement.monthEnd) - 1).toISOString();
  const totals: [string, number][] = [
    [t('statement.opening'), statement.openingMinor],
    [t('statement.earned'), statement.earnedMinor],
    [t('statement.refunded'), statement.refundedMinor],
    [t('statement.corrections'), statement.correctionsMinor],
    [t('statement.payoutsTotal'), statement.payoutsMinor],
    [t('statement.closing'), statement.closingMinor],
  ];
  return (
    <section className="space-y-6" aria-labelledby="statement-title">
      <p>
        <Link to={localePath(locale, '/studio/earnings')} className="text-sm text-green-700 underline-offset-4 hover:underline dark:text-green-400">
          {t('statement.back')}
        </Link>
      </p>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h2 id="statement-title" className="text-xl font-semibold tracking-tight">
            {t('statement.title', { month: format.month(statement.month), currency: statement.currency })}
          </h2>
          <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">
            {statement.status === 'closed' && statement.closedAt
              ? t('statement.closedOn', { date: format.time(statement.closedAt) })
              : t('statement.open', { date: format.date(lastDay) })}
          </p>
        </div>
        <CsvButton currency={statement.currency} month={statement.month} />
      </div>

      <dl aria-label={t('statement.totals')} className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {totals.map(([label, value]) => (
          <div key={label} className="rounded-xl border border-zinc-200 p-3 dark:border-zinc-800">
            <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums">{money(value)}</dd>
          </div>
        ))}
      </dl>

      {statement.lines.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('statement.noLines')}</p>
      ) : (
        <ScrollRegion label={t('statement.lines')} className="overflow-x-auto rounded-xl border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-sm">
            <caption className="px-3 py-2 text-left font-semibold">{t('statement.lines')}</caption>
            <thead className="border-y border-zinc-200 bg-zinc-50 text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  {t('statement.kind')}
                </th>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  {t('statement.game')}
                </th>
                <th scope="col" className="px-3 py-2 text-left font-medium">
                  {t('statement.item')}
                </th>
                <th scope="col" className={headCell}>
                  {t('statement.entries')}
                </th>
                <th scope="col" className={headCell}>
                  {t('statement.gross')}
                </th>
                <th scope="col" className={headCell}>
                  {t('statement.deductions')}
                </th>
                <th scope="col" className={headCell}>
                  {t('statement.platform')}
                </th>
                <th scope="col" className={headCell}>
                  {t('statement.studio')}
                </th>
              </tr>
            </thead>
            <tbody>
              {statement.lines.map((line) => (
                <tr key={`${line.kind} ${line.appId} ${line.itemId}`} className="border-b border-zinc-100 last:border-0 dark:border-zinc-900">
                  <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                    {t(`kinds.${line.kind}`)}
                  </th>
                  <td className="px-3 py-2">{line.gameTitle ?? '–'}</td>
                  <td className="px-3 py-2">{line.itemName ?? line.itemSku ?? '–'}</td>
                  <td className={cell}>{format.number(line.entries)}</td>
                  <td className={cell}>{money(line.grossMinor)}</td>
                  <td className={cell}>{money(line.deductionsMinor)}</td>
                  <td className={cell}>{money(line.platformMinor)}</td>
                  <td className={cell}>{money(line.studioMinor)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}

/**
 * Downloads the statement's CSV. The API takes the session only as a bearer token, so the file is
 * fetched by script and handed to the browser as a download.
 */
function CsvButton({ currency, month }: { currency: string; month: string }) {
  const { t } = useTranslation('earnings');
  const locale = useLocale();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  async function download() {
    setState('busy');
    try {
      const token = session.snapshot().token;
      const response = await fetch(`${API_BASE}/studio/earnings/statements/${currency}/${month}.csv?locale=${locale}`, {
        credentials: 'include',
        headers: { Locale: locale, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
      if (!response.ok) throw new Error(`CSV export answered ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `statement-${currency}-${month}.csv`;
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
        {state === 'busy' ? t('statement.downloading') : t('statement.download')}
      </Button>
      <output className="text-xs text-red-700 dark:text-red-400">{state === 'failed' ? t('statement.downloadFailed') : ''}</output>
    </div>
  );
}
