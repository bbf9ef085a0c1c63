import { type FormEvent, useId, useState } from 'react';
import type { ReconciliationDifference, ReconciliationResult } from '#common/api/earnings-console.schema.ts';
import { formatMoney } from '#common/money.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';
import { useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { cellClass, headClass, tableClass, tableFrame } from '../console/console-format.ts';

/** The largest file the page sends: the API's JSON limit; the command takes larger reports. */
const PAGE_LIMIT_BYTES = 1_000_000;

/** The Console's reconciliation (decision 149): an operator uploads Xsolla's transaction report and sees every difference with the ledger. */
export function ConsoleReconciliation() {
  const { t } = useTranslation('console');
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<ReconciliationResult | null>(null);
  const { errors, alert, check, fail, formRef } = useFormErrors();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!file) found.report = t('earnings.reconciliation.fileMissing');
    else if (file.size > PAGE_LIMIT_BYTES) found.report = t('earnings.reconciliation.fileTooLarge');
    if (!check(found) || !file) return;
    setPending(true);
    try {
      const text = await file.text();
      // The report goes as a JSON string; the API reads a text/csv body the same way (the command and scripts send that).
      const { data } = await api.post('/console/earnings/reconciliation', text, { query: { ...(from ? { from } : {}), ...(to ? { to } : {}) } });
      setResult(data);
    } catch (failure) {
      setResult(null);
      fail(failure, ['from', 'to']);
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="space-y-5" aria-labelledby="console-reconciliation-heading">
      <h2 id="console-reconciliation-heading" className="text-xl font-semibold tracking-tight">
        {t('earnings.reconciliation.heading')}
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('earnings.reconciliation.intro')}</p>
      <form ref={formRef} onSubmit={submit} noValidate className="relative space-y-3" data-testid="reconciliation-form">
        <div className="space-y-1.5">
          <label htmlFor={fileId} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('earnings.reconciliation.file')}
          </label>
          <input
            id={fileId}
            name="report"
            type="file"
            accept=".csv,text/csv"
            aria-invalid={errors.report ? true : undefined}
            aria-describedby={`${fileId}-hint${errors.report ? ` ${fileId}-error` : ''}`}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            disabled={pending}
            className="block text-sm"
            data-testid="reconciliation-file"
          />
          {errors.report ? (
            <p id={`${fileId}-error`} className="text-sm text-red-700 dark:text-red-400" data-testid="field-error">
              {errors.report}
            </p>
          ) : null}
          <p id={`${fileId}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
            {t('earnings.reconciliation.fileHint')}
          </p>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={t('earnings.reconciliation.from')}
            name="from"
            type="date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            error={errors.from}
            disabled={pending}
          />
          <TextField
            label={t('earnings.reconciliation.to')}
            name="to"
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={errors.to}
            disabled={pending}
          />
        </div>
        <FormAlert message={alert} />
        <Button type="submit" disabled={pending} data-testid="reconciliation-submit">
          {t('earnings.reconciliation.submit')}
        </Button>
        <LoadingOverlay show={pending} />
      </form>
      <div aria-live="polite">{result && <ReconciliationDifferences result={result} />}</div>
    </section>
  );
}

function ReconciliationDifferences({ result }: { result: ReconciliationResult }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const side = (s: ReconciliationDifference['report']) => {
    if (!s) return '—';
    const money = (minor: number | null) => (minor === null || !s.currency ? '—' : formatMoney(minor, s.currency, locale));
    return t('earnings.reconciliation.side', { amount: money(s.amount), fee: money(s.fee), refunded: money(s.refunded) });
  };
  return (
    <div className="space-y-3" data-testid="reconciliation-result" data-differences={result.differences.length}>
      <p className="text-sm">
        {t('earnings.reconciliation.summary', {
          from: result.period.from ?? '…',
          to: result.period.to ?? '…',
          rows: result.rows,
          payments: result.ledgerPayments,
          matched: result.matched,
          count: result.differences.length,
        })}
      </p>
      {result.differences.length === 0 ? (
        <p className="text-sm font-medium text-green-800 dark:text-green-300">{t('earnings.reconciliation.none')}</p>
      ) : (
        <ScrollRegion label={t('earnings.reconciliation.differences')} className={tableFrame}>
          <table className={tableClass}>
            <caption className="sr-only">{t('earnings.reconciliation.differences')}</caption>
            <thead className="bg-zinc-50 dark:bg-zinc-900">
              <tr>
                <th className={headClass}>{t('earnings.reconciliation.kind')}</th>
                <th className={headClass}>{t('earnings.reconciliation.line')}</th>
                <th className={headClass}>{t('earnings.reconciliation.order')}</th>
                <th className={headClass}>{t('earnings.reconciliation.report')}</th>
                <th className={headClass}>{t('earnings.reconciliation.ledger')}</th>
                <th className={headClass}>{t('earnings.reconciliation.note')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {result.differences.map((d, index) => (
                <tr key={index} data-testid="reconciliation-difference" data-kind={d.kind}>
                  <td className={cellClass}>{t(`earnings.reconciliation.kinds.${d.kind}`)}</td>
                  <td className={cellClass}>{d.line ?? '—'}</td>
                  <td className={`${cellClass} font-mono break-all`}>
                    {d.orderId ?? '—'}
                    {d.transactionId ? <span className="block text-xs text-zinc-600 dark:text-zinc-400">{d.transactionId}</span> : null}
                  </td>
                  <td className={cellClass}>
                    {d.report?.currency ? `${d.report.currency} · ` : ''}
                    {side(d.report)}
                  </td>
                  <td className={cellClass}>
                    {d.ledger?.currency ? `${d.ledger.currency} · ` : ''}
                    {side(d.ledger)}
                  </td>
                  <td className={cellClass}>{d.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </div>
  );
}
