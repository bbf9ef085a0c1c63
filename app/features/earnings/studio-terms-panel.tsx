import { type FormEvent, useEffect, useState } from 'react';
import type { StudioRevenueTerms } from '#common/api/earnings-console.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { cellClass, failureText, formatDateTime, headClass, numberHeadClass, tableClass, tableFrame } from '../console/console-format.ts';

const percentText = (percent: number, locale: string) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(percent) + ' %';

/**
 * A studio's revenue terms on the Console's member page (decision 149): the share in force, every
 * terms set and a form for new ones. Nothing shows for a member without a studio profile.
 */
export function StudioTermsPanel({ studioUserId }: { studioUserId: number }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  // When the terms were read: those starting later are marked as scheduled.
  const [loaded, setLoaded] = useState<{ id: number; terms: StudioRevenueTerms | null; at: string } | null>(null);
  const terms = loaded?.id === studioUserId ? loaded.terms : null;

  useEffect(() => {
    let active = true;
    api.get(`/console/studios/${studioUserId}/terms`).then(
      ({ data }) => active && setLoaded({ id: studioUserId, terms: data, at: new Date().toISOString() }),
      (failure: unknown) => {
        if (!active) return;
        setLoaded({ id: studioUserId, terms: null, at: new Date().toISOString() });
        toast.add({ title: failureText(failure, '', t('ops.loadFailed')), color: 'error' });
      },
    );
    return () => {
      active = false;
    };
  }, [studioUserId, t]);

  // A member who is not a studio has no terms: the section is left out.
  if (!terms?.studio || !loaded) return null;
  const now = loaded.at;
  const studio = terms.studio;
  return (
    <section className="space-y-3" aria-labelledby="studio-terms-heading" data-testid="studio-terms">
      <h4 id="studio-terms-heading" className="text-sm font-semibold">
        {t('earnings.terms.heading', { studio: studio.studioName })}
      </h4>
      <p className="text-sm" data-testid="studio-terms-current">
        {t('earnings.terms.current', { share: percentText(terms.currentSharePercent, locale) })}{' '}
        <span className="text-zinc-600 dark:text-zinc-400">{t('earnings.terms.default', { share: percentText(terms.defaultSharePercent, locale) })}</span>
      </p>
      {terms.terms.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('earnings.terms.none')}</p>
      ) : (
        <ScrollRegion label={t('earnings.terms.history')} className={tableFrame}>
          <table className={tableClass} data-testid="studio-terms-history">
            <caption className="sr-only">{t('earnings.terms.history')}</caption>
            <thead className="bg-zinc-50 dark:bg-zinc-900">
              <tr>
                <th className={headClass}>{t('earnings.terms.startsAt')}</th>
                <th className={numberHeadClass}>{t('earnings.terms.share')}</th>
                <th className={headClass}>{t('earnings.terms.reason')}</th>
                <th className={headClass}>{t('earnings.terms.setAt')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {terms.terms.map((entry, index) => (
                <tr key={index} data-testid="studio-terms-row">
                  <td className={cellClass}>
                    {formatDateTime(entry.startsAt, locale)}
                    {entry.startsAt > now ? <span className="ml-2 text-xs text-amber-800 dark:text-amber-300">{t('earnings.terms.scheduled')}</span> : null}
                  </td>
                  <td className={`${cellClass} text-right tabular-nums`}>{percentText(entry.sharePercent, locale)}</td>
                  <td className={`${cellClass} break-words`}>{entry.reason}</td>
                  <td className={cellClass}>{formatDateTime(entry.createdAt, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <TermsForm studioUserId={studioUserId} onSaved={(saved) => setLoaded({ id: studioUserId, terms: saved, at: new Date().toISOString() })} />
    </section>
  );
}

function TermsForm({ studioUserId, onSaved }: { studioUserId: number; onSaved: (terms: StudioRevenueTerms) => void }) {
  const { t } = useTranslation('console');
  const [today] = useState(() => new Date().toISOString().slice(0, 10));
  const [share, setShare] = useState('');
  const [startsAt, setStartsAt] = useState(today);
  const [reason, setReason] = useState('');
  const [pending, setPending] = useState(false);
  const { errors, alert, check, fail, formRef } = useFormErrors();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    const percent = Number(share.trim().replace(',', '.'));
    if (share.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 100) found.sharePercent = t('earnings.errors.sharePercent');
    else if (!/^\d{1,3}([.,]\d{1,2})?$/.test(share.trim())) found.sharePercent = t('earnings.errors.shareDecimals');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(startsAt)) found.startsAt = t('earnings.errors.startsAtFormat');
    else if (startsAt < today) found.startsAt = t('earnings.errors.startsInPast');
    if (reason.trim().length < 3) found.reason = t('ops.errors.reasonShort');
    if (!check(found)) return;
    setPending(true);
    try {
      const { data } = await api.post(`/console/studios/${studioUserId}/terms`, { sharePercent: percent, startsAt, reason: reason.trim() });
      onSaved(data);
      setShare('');
      setReason('');
      toast.add({ title: t('earnings.terms.saved'), color: 'success' });
    } catch (failure) {
      fail(failure, ['sharePercent', 'startsAt', 'reason']);
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      className="relative space-y-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
      aria-labelledby="studio-terms-form-heading"
    >
      <h5 id="studio-terms-form-heading" className="text-sm font-semibold">
        {t('earnings.terms.formHeading')}
      </h5>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={t('earnings.terms.sharePercent')}
          hint={t('earnings.terms.sharePercentHint')}
          name="sharePercent"
          inputMode="decimal"
          autoComplete="off"
          value={share}
          onChange={(e) => setShare(e.target.value)}
          error={errors.sharePercent}
          disabled={pending}
          data-testid="terms-share"
        />
        <TextField
          label={t('earnings.terms.startsAtLabel')}
          hint={t('earnings.terms.startsAtHint')}
          name="startsAt"
          type="date"
          min={today}
          value={startsAt}
          onChange={(e) => setStartsAt(e.target.value)}
          error={errors.startsAt}
          disabled={pending}
          data-testid="terms-starts-at"
        />
      </div>
      <TextField
        label={t('ops.orders.reason')}
        hint={t('ops.orders.reasonHint')}
        name="reason"
        maxLength={500}
        autoComplete="off"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={errors.reason}
        disabled={pending}
        data-testid="terms-reason"
      />
      <FormAlert message={alert} />
      <Button type="submit" disabled={pending} data-testid="terms-submit">
        {t('earnings.terms.submit')}
      </Button>
      <LoadingOverlay show={pending} />
    </form>
  );
}
