import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type ConsolePayout, PAYOUT_STATUSES } from '#common/api/payouts.schema.ts';
import { formatMoney } from '#common/money.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { cellClass, failureText, formatDateTime, headClass, numberHeadClass, tableClass, tableFrame } from '../console/console-format.ts';
import { ReasonDialog } from '../console/reason-dialog.tsx';

type Decision = { action: 'approve' | 'reject'; payout: ConsolePayout } | { action: 'propose' };

/**
 * The Console's payouts (decision 149): studios' payouts by state; an operator approves or rejects
 * each proposal with a reason (in the audit log), or proposes last month's payouts at once.
 */
export function ConsolePayouts() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const status = PAYOUT_STATUSES.find((s) => s === params.get('status'));
  const [items, setItems] = useState<ConsolePayout[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [decision, setDecision] = useState<Decision | null>(null);

  useEffect(() => {
    let active = true;
    api.get('/console/payouts/', { query: status ? { status } : {} }).then(
      ({ data }) => {
        if (!active) return;
        setItems(data.items);
        setError(null);
      },
      (failure: unknown) => active && setError(failureText(failure, 'status', t('ops.loadFailed'))),
    );
    return () => {
      active = false;
    };
  }, [status, t]);

  const decide = async (reason: string) => {
    if (!decision) return;
    if (decision.action === 'propose') {
      const { data } = await api.post('/console/payouts/propose', { reason });
      toast.add({ title: t('payouts.proposedCount', { count: data.proposed, month: data.month }), color: 'success' });
    } else {
      const id = decision.payout.id;
      const path = `/console/payouts/${encodeURIComponent(id)}` as const;
      if (decision.action === 'approve') await api.post(`${path}/approve`, { reason });
      else await api.post(`${path}/reject`, { reason });
      toast.add({ title: t(decision.action === 'approve' ? 'payouts.approved' : 'payouts.rejected', { id }), color: 'success' });
    }
    const { data } = await api.get('/console/payouts/', { query: status ? { status } : {} });
    setItems(data.items);
  };

  return (
    <section className="space-y-5" aria-labelledby="console-payouts-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h2 id="console-payouts-heading" className="text-xl font-semibold tracking-tight">
            {t('payouts.heading')}
          </h2>
          <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('payouts.intro')}</p>
        </div>
        <Button variant="secondary" onClick={() => setDecision({ action: 'propose' })} data-testid="payouts-propose">
          {t('payouts.propose')}
        </Button>
      </div>
      <div className="space-y-1.5">
        <label htmlFor="payouts-status" className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('payouts.filter')}
        </label>
        <select
          id="payouts-status"
          value={status ?? ''}
          onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {})}
          className={cn(
            'block h-11 w-full rounded-lg border border-zinc-300 bg-white px-3 text-base sm:h-10 sm:w-48 sm:text-sm dark:border-zinc-700 dark:bg-zinc-950',
            focusRing,
          )}
        >
          <option value="">{t('payouts.any')}</option>
          {PAYOUT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`payouts.statuses.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <div aria-live="polite">
        {error && <p className="text-red-700 dark:text-red-400">{error}</p>}
        {items?.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('payouts.empty')}</p>}
      </div>
      {items && items.length > 0 && (
        <ScrollRegion label={t('payouts.heading')} className={tableFrame}>
          <table className={tableClass} data-testid="payouts-table">
            <thead className="bg-zinc-50 dark:bg-zinc-900">
              <tr>
                <th className={headClass}>{t('payouts.studio')}</th>
                <th className={headClass}>{t('payouts.month')}</th>
                <th className={numberHeadClass}>{t('payouts.amount')}</th>
                <th className={headClass}>{t('payouts.status')}</th>
                <th className={headClass}>{t('payouts.proposedAt')}</th>
                <th className={headClass}>{t('payouts.note')}</th>
                <th className={headClass}>{t('payouts.actions')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {items.map((payout) => (
                <tr key={payout.id} data-testid="payout-row" data-status={payout.status}>
                  <td className={cellClass}>
                    {payout.studio.name ?? `#${payout.studio.id}`}
                    <span className="block font-mono text-xs text-zinc-500">{payout.id}</span>
                  </td>
                  <td className={cn(cellClass, 'whitespace-nowrap')}>{payout.month}</td>
                  <td className={cn(cellClass, 'text-right whitespace-nowrap tabular-nums')}>{formatMoney(payout.amountMinor, payout.currency, locale)}</td>
                  <td className={cellClass}>{t(`payouts.statuses.${payout.status}`)}</td>
                  <td className={cn(cellClass, 'whitespace-nowrap')}>{formatDateTime(payout.proposedAt, locale)}</td>
                  <td className={cn(cellClass, 'break-words')}>
                    {[
                      payout.hasDetails ? null : t('payouts.noDetails'),
                      payout.failure,
                      payout.attempts > 1 ? t('payouts.attempts', { count: payout.attempts }) : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </td>
                  <td className={cellClass}>
                    {payout.status === 'proposed' && (
                      <div className="flex gap-2">
                        <Button size="sm" onClick={() => setDecision({ action: 'approve', payout })} aria-label={`${t('payouts.approve')} ${payout.id}`}>
                          {t('payouts.approve')}
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          onClick={() => setDecision({ action: 'reject', payout })}
                          aria-label={`${t('payouts.reject')} ${payout.id}`}
                        >
                          {t('payouts.reject')}
                        </Button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {decision && (
        <ReasonDialog
          key={decision.action === 'propose' ? 'propose' : `${decision.action}:${decision.payout.id}`}
          open
          onOpenChange={(open) => !open && setDecision(null)}
          title={
            decision.action === 'propose'
              ? t('payouts.proposeTitle')
              : t(decision.action === 'approve' ? 'payouts.approveTitle' : 'payouts.rejectTitle', { id: decision.payout.id })
          }
          description={
            decision.action === 'propose'
              ? t('payouts.proposeBody')
              : decision.action === 'approve'
                ? t('payouts.approveBody', {
                    amount: formatMoney(decision.payout.amountMinor, decision.payout.currency, locale),
                    studio: decision.payout.studio.name ?? `#${decision.payout.studio.id}`,
                    month: decision.payout.month,
                  })
                : t('payouts.rejectBody')
          }
          confirmLabel={decision.action === 'propose' ? t('payouts.propose') : t(decision.action === 'approve' ? 'payouts.approve' : 'payouts.reject')}
          testId="payout-dialog"
          destructive={decision.action === 'reject'}
          onConfirm={decide}
        />
      )}
    </section>
  );
}
