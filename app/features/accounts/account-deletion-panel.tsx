import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AccountDeletion } from '#common/api/account-deletion.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { messageOf, useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert } from '../../ui/form-field.tsx';
import { CurrentPasswordField } from './credential-fields.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { session } from './session.ts';

/**
 * /user/profile/delete (decision 147): what deleting the account does, the studio's games if the
 * member has live ones, then the password (or a recent sign-in) and the button. The account closes
 * at once and this browser is signed out like every other.
 */
export function AccountDeletionPanel() {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const navigate = useNavigate();
  const [status, setStatus] = useState<AccountDeletion | null>(null);
  const [currentPassword, setCurrentPassword] = useState('');
  const [understood, setUnderstood] = useState(false);
  const { errors, alert, fail, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();

  useEffect(() => {
    let active = true;
    api.get('/user/account-deletion/').then(
      ({ data }) => active && setStatus(data),
      (failure: unknown) => active && toast.add({ title: messageOf(failure, t('deletion.failedToLoad')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [t]);

  const remove = () =>
    run('delete', async () => {
      try {
        const { data } = await api.post('/user/account-deletion/', status?.hasPassword ? { currentPassword } : {});
        // Every session ended on the server; this browser forgets its token and goes on as a visitor.
        await session.logout().catch(() => undefined);
        toast.add({ title: t('deletion.closed', { date: formatDate(data.erasedAfter, locale) }), color: 'success' });
        await navigate(localePath(locale, '/'), { replace: true });
      } catch (failure) {
        fail(failure, ['currentPassword']);
      }
    });

  if (!status) return <p className="text-sm text-zinc-500">{t('deletion.loading')}</p>;
  return (
    <form ref={formRef} onSubmit={(event) => event.preventDefault()} noValidate className="space-y-4" data-testid="account-deletion">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('deletion.intro', { days: status.graceDays })}</p>
      <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-600 dark:text-zinc-400">
        <li>{t('deletion.whatGoes')}</li>
        <li>{t('deletion.scoresKept')}</li>
        <li>{t('deletion.ordersKept')}</li>
        <li>{t('deletion.gamesTold')}</li>
      </ul>
      {status.liveGames > 0 ? (
        // No icon: importing one more would split the icon chunk the home page loads (its first-load budget).
        <p className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950" data-testid="account-deletion-games">
          {t('deletion.liveGames', { count: status.liveGames })}
        </p>
      ) : null}
      <p className="text-sm">
        <Link to={localePath(locale, '/user/profile/data')} className="underline underline-offset-2">
          {t('deletion.copyFirst')}
        </Link>
      </p>
      {status.hasPassword ? (
        <CurrentPasswordField value={currentPassword} onChange={setCurrentPassword} error={errors.currentPassword} disabled={pending !== null} />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('deletion.recentSignIn')}</p>
      )}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4"
          checked={understood}
          onChange={(e) => setUnderstood(e.target.checked)}
          disabled={pending !== null}
          data-testid="account-deletion-understood"
        />
        <span>{t('deletion.understood', { days: status.graceDays })}</span>
      </label>
      <FormAlert message={alert} />
      <Button type="button" variant="danger" onClick={remove} disabled={pending !== null || !understood} data-testid="account-deletion-confirm">
        {t('deletion.confirm')}
      </Button>
    </form>
  );
}

/** My area's note after a sign-in that restored an account whose deletion was asked for (decision 147). */
export function AccountRestoredNotice() {
  const { t } = useTranslation('accounts');
  const [restoredAt, setRestoredAt] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    api.get('/user/account-deletion/').then(
      ({ data }) => active && setRestoredAt(data.restoredAt),
      // Only a note: without it the page is the same.
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, []);
  if (!restoredAt) return null;
  return (
    <output
      className="block rounded-xl border border-emerald-300 bg-emerald-50 p-4 text-sm dark:border-emerald-800 dark:bg-emerald-950"
      data-testid="account-restored"
    >
      {t('deletion.restored')}
    </output>
  );
}
