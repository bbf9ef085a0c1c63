import { type FormEvent, useEffect, useState } from 'react';
import type { PayoutDetails, StudioPayout } from '#common/api/payouts.schema.ts';
import { formatMoney } from '#common/money.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, TextField } from '../../ui/form-field.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';

const FIELDS = ['method', 'receiver', 'legalName', 'country', 'taxId'];

/** The form's fields as the saved details fill them; the tax id is never sent back, so it starts empty. */
function formOf(answer: PayoutDetails) {
  const saved = answer.details;
  return {
    method: saved?.method ?? answer.methods[0] ?? '',
    receiver: saved?.receiver ?? '',
    legalName: saved?.legalName ?? '',
    country: saved?.country ?? '',
    taxId: '',
  };
}

/**
 * The Studio's payouts (decision 149): where the studio is paid (the tax id is sent once and only
 * its last 4 characters come back), and its payouts with their state.
 */
export function StudioPayouts() {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const [details, setDetails] = useState<PayoutDetails | null>(null);
  const [payouts, setPayouts] = useState<StudioPayout[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [form, setForm] = useState({ method: '', receiver: '', legalName: '', country: '', taxId: '' });
  const [pending, setPending] = useState(false);
  const { errors, alert, fail, check, formRef } = useFormErrors();

  const fill = (answer: PayoutDetails) => {
    setDetails(answer);
    setForm(formOf(answer));
  };

  useEffect(() => {
    let active = true;
    Promise.all([api.get('/studio/earnings/payout-details/'), api.get('/studio/earnings/payouts/')]).then(
      ([detailsAnswer, payoutsAnswer]) => {
        if (!active) return;
        setDetails(detailsAnswer.data);
        setForm(formOf(detailsAnswer.data));
        setPayouts(payoutsAnswer.data.items);
      },
      () => active && setLoadError(true),
    );
    return () => {
      active = false;
    };
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!check({})) return;
    setPending(true);
    try {
      const { data } = await api.put('/studio/earnings/payout-details/', {
        method: form.method as 'paypal' | 'stand-in',
        receiver: form.receiver.trim(),
        legalName: form.legalName.trim(),
        country: form.country.trim(),
        ...(form.taxId.trim() ? { taxId: form.taxId.trim() } : {}),
      });
      fill(data);
      toast.add({ title: t('payouts.details.saved'), color: 'success' });
      const { data: list } = await api.get('/studio/earnings/payouts/');
      setPayouts(list.items);
    } catch (failure) {
      fail(failure, FIELDS);
    } finally {
      setPending(false);
    }
  };

  const set = (field: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const saved = details?.details ?? null;

  return (
    <div className="space-y-8">
      <section className="space-y-4" aria-labelledby="studio-payout-details">
        <div className="space-y-1">
          <h2 id="studio-payout-details" className="text-xl font-semibold tracking-tight">
            {t('payouts.details.heading')}
          </h2>
          {details && <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('payouts.intro', { minimum: details.minimum })}</p>}
        </div>
        {loadError && <p className="text-red-700 dark:text-red-400">{t('payouts.loadFailed')}</p>}
        {details && details.methods.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('payouts.details.off')}</p>}
        {details && details.methods.length > 0 && (
          <form ref={formRef} onSubmit={save} noValidate className="max-w-lg space-y-4" data-testid="payout-details-form">
            <FormAlert message={alert} />
            <div className="space-y-1.5">
              <label htmlFor="payout-method" className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
                {t('payouts.details.method')}
              </label>
              <select
                id="payout-method"
                value={form.method}
                onChange={(e) => set('method')(e.target.value)}
                disabled={pending}
                aria-invalid={errors.method ? true : undefined}
                className={cn(
                  'block h-11 w-full rounded-lg border border-zinc-300 bg-white px-3 text-base sm:h-10 sm:text-sm dark:border-zinc-700 dark:bg-zinc-950',
                  focusRing,
                )}
              >
                {details.methods.map((method) => (
                  <option key={method} value={method}>
                    {t(`payouts.details.methods.${method}`)}
                  </option>
                ))}
              </select>
              {errors.method && <p className="text-sm text-red-700 dark:text-red-400">{errors.method}</p>}
            </div>
            <TextField
              label={t('payouts.details.receiver')}
              name="receiver"
              type="email"
              autoComplete="email"
              value={form.receiver}
              maxLength={254}
              onChange={(e) => set('receiver')(e.target.value)}
              disabled={pending}
              error={errors.receiver}
            />
            <TextField
              label={t('payouts.details.legalName')}
              hint={t('payouts.details.legalNameHint')}
              name="legalName"
              autoComplete="organization"
              value={form.legalName}
              maxLength={200}
              onChange={(e) => set('legalName')(e.target.value)}
              disabled={pending}
              error={errors.legalName}
            />
            <TextField
              label={t('payouts.details.country')}
              hint={t('payouts.details.countryHint')}
              name="country"
              autoComplete="country"
              value={form.country}
              maxLength={2}
              onChange={(e) => set('country')(e.target.value)}
              disabled={pending}
              error={errors.country}
            />
            <TextField
              label={t('payouts.details.taxId')}
              hint={saved?.taxIdLast4 ? t('payouts.details.taxIdKept', { last4: saved.taxIdLast4 }) : t('payouts.details.taxIdNone')}
              name="taxId"
              autoComplete="off"
              spellCheck={false}
              value={form.taxId}
              maxLength={40}
              onChange={(e) => set('taxId')(e.target.value)}
              disabled={pending}
              error={errors.taxId}
            />
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={pending}>
                {t('payouts.details.save')}
              </Button>
              {saved && (
                <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('payouts.details.updated', { when: formatDate(saved.updatedAt, locale) })}</p>
              )}
            </div>
          </form>
        )}
      </section>
      <section className="space-y-3" aria-labelledby="studio-payouts-list">
        <h2 id="studio-payouts-list" className="text-xl font-semibold tracking-tight">
          {t('payouts.list.heading')}
        </h2>
        {payouts?.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">{t('payouts.list.empty')}</p>}
        {payouts && payouts.length > 0 && (
          <ScrollRegion label={t('payouts.list.heading')} className="overflow-x-auto rounded-xl border border-zinc-200 dark:border-zinc-800">
            <table className="w-full min-w-[32rem] divide-y divide-zinc-200 text-sm dark:divide-zinc-800" data-testid="studio-payouts">
              <thead className="bg-zinc-50 dark:bg-zinc-900">
                <tr>
                  <th className="px-3 py-2 text-left font-medium">{t('payouts.list.month')}</th>
                  <th className="px-3 py-2 text-right font-medium">{t('payouts.list.amount')}</th>
                  <th className="px-3 py-2 text-left font-medium">{t('payouts.list.status')}</th>
                  <th className="px-3 py-2 text-left font-medium">{t('payouts.list.note')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
                {payouts.map((payout) => (
                  <tr key={payout.id} data-status={payout.status}>
                    <td className="px-3 py-2 whitespace-nowrap">{payout.month}</td>
                    <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{formatMoney(payout.amountMinor, payout.currency, locale)}</td>
                    <td className="px-3 py-2">{t(`payouts.statuses.${payout.status}`)}</td>
                    <td className="px-3 py-2 break-words">{payout.failure ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
    </div>
  );
}
