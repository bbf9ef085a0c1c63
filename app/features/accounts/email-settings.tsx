import { MailCheck } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { EmailStatus } from '#common/api/account-recovery.schema.ts';
import { EmailSchema } from '#common/api/accounts.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { messageOf, schemaError, useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { useProfile } from './profile-context.tsx';
import { CurrentPasswordField } from './credential-fields.tsx';

/**
 * /user/profile/email (decision 146): the address, and its confirmation by the 6-digit code of a
 * mail (typed, or in the link of the mail, which opens this page). Changing a confirmed address
 * asks for the current password.
 */
export function EmailSettings() {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const { profile, apply } = useProfile();
  const [status, setStatus] = useState<EmailStatus | null>(null);
  const [value, setValue] = useState(profile.email ?? '');
  const [current, setCurrent] = useState('');
  const [search, setSearch] = useSearchParams();
  const [code, setCode] = useState(() => search.get('code') ?? '');
  const address = useFormErrors();
  const confirmation = useFormErrors();
  const { pending, run } = usePendingAction();
  const linkCode = useRef(search.get('code'));
  const busy = pending !== null;
  const asksPassword = Boolean(status?.verified && profile.hasPassword);

  useEffect(() => {
    let active = true;
    api.get('/member/email/status/').then(
      ({ data }) => active && setStatus(data),
      (failure: unknown) => active && toast.add({ title: messageOf(failure, t('errors:generic')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [t, profile.email]);

  const confirm = (typed: string) =>
    run('confirm', async () => {
      try {
        const { data } = await api.post('/member/email/verify/', { code: typed.trim() });
        setStatus(data);
        setCode('');
        toast.add({ title: t('email.verified'), color: 'success' });
      } catch (failure) {
        confirmation.fail(failure, ['code']);
      }
    });

  // The mail's link holds the code: once the page knows a code waits, it confirms it, then drops it from the address.
  useEffect(() => {
    const fromLink = linkCode.current;
    if (!fromLink || !status) return;
    linkCode.current = null;
    setSearch((params) => (params.delete('code'), params), { replace: true });
    if (!status.verified && status.codeSentTo) confirm(fromLink);
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- once, when the status first arrives
  }, [status]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const local = schemaError(EmailSchema, value, t);
    const found: Record<string, string> = local ? { email: local } : {};
    if (asksPassword && !current && value.trim() !== (profile.email ?? '')) found.currentPassword = t('password.currentRequired');
    if (!address.check(found)) return;
    run('save', async () => {
      try {
        const { data } = await api.patch('/member/email/', { email: value, locale, ...(asksPassword ? { currentPassword: current } : {}) });
        apply(data);
        setValue(data.profile.email ?? '');
        setCurrent('');
        toast.add({ title: t(data.profile.email === null ? 'profile.emailRemoved' : 'profile.emailSaved'), color: 'success' });
      } catch (failure) {
        address.fail(failure, ['email', 'currentPassword']);
      }
    });
  };

  const sendCode = () =>
    run('send', async () => {
      try {
        setStatus((await api.post('/member/email/code/', { locale })).data);
        toast.add({ title: t('email.codeSentToast'), color: 'success' });
      } catch (failure) {
        confirmation.fail(failure, ['code']);
      }
    });

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmation.check(/^\s*\d{6}\s*$/.test(code) ? {} : { code: t('email.codeWrong') })) return;
    confirm(code);
  };

  return (
    <div className="space-y-6">
      <form ref={address.formRef} onSubmit={save} noValidate className="relative space-y-4" data-testid="profile-email-form">
        <TextField
          label={t('profile.email')}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          hint={t('profile.emailHint')}
          error={address.errors.email}
          disabled={busy}
        />
        {asksPassword ? (
          <CurrentPasswordField value={current} onChange={setCurrent} hint={t('email.passwordHint')} error={address.errors.currentPassword} disabled={busy} />
        ) : null}
        <FormAlert message={address.alert} />
        <Button type="submit" disabled={busy} data-testid="profile-save">
          {t('profile.save')}
        </Button>
        <LoadingOverlay show={pending === 'save'} />
      </form>

      {status?.email && status.email === profile.email ? (
        status.verified ? (
          <p className="flex items-center gap-2 text-sm" data-testid="email-verified">
            <MailCheck aria-hidden className="size-4 text-green-600" />
            {t('email.verifiedNote')}
          </p>
        ) : profile.isGuest ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="email-guest-note">
            {t('email.guestNote')}
          </p>
        ) : (
          <form ref={confirmation.formRef} onSubmit={submitCode} noValidate className="relative space-y-4" data-testid="email-confirm-form">
            <p className="text-sm">{status.codeSentTo ? t('email.codeSent', { email: status.codeSentTo }) : t('email.notVerified')}</p>
            <TextField
              label={t('email.code')}
              name="one-time-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              error={confirmation.errors.code}
              disabled={busy}
            />
            <FormAlert message={confirmation.alert} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy} data-testid="email-confirm">
                {t('email.confirm')}
              </Button>
              <Button type="button" variant="secondary" disabled={busy} onClick={sendCode} data-testid="email-send-code">
                {t('email.sendCode')}
              </Button>
            </div>
            <LoadingOverlay show={pending === 'confirm' || pending === 'send'} />
          </form>
        )
      ) : null}
    </div>
  );
}
