import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ResetLink } from '#common/api/account-recovery.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { fieldErrorsOf, useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { NewPasswordField, NewUsernameField, newCredentialErrors, ShowPassword } from './credential-fields.tsx';

const linkClass = cn('rounded text-green-700 underline-offset-2 hover:underline dark:text-green-400', focusRing);

/** /login/forgot (decision 146): asks for a confirmed address; the answer is the same whether an account has it or not. */
export function ForgotPasswordForm() {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { errors, alert, check, fail, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!check(email.trim() ? {} : { email: t('email.invalid') })) return;
    run('send', async () => {
      try {
        await api.post('/username/password/forgot/', { email: email.trim(), locale });
        setSentTo(email.trim());
      } catch (failure) {
        fail(failure, ['email']);
      }
    });
  };

  if (sentTo)
    return (
      <div className="space-y-4" data-testid="forgot-sent">
        <p>{t('recovery.sent', { email: sentTo })}</p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('recovery.sentHint')}</p>
        <Link to={localePath(locale, '/login')} className={linkClass}>
          {t('recovery.backToSignIn')}
        </Link>
      </div>
    );
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="relative space-y-4" data-testid="forgot-form">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('recovery.intro')}</p>
      <TextField
        label={t('profile.email')}
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
        disabled={pending !== null}
      />
      <FormAlert message={alert} />
      <Button type="submit" className="w-full" disabled={pending !== null} data-testid="forgot-submit">
        {t('recovery.send')}
      </Button>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('recovery.noAddress')}</p>
      <LoadingOverlay show={pending !== null} />
    </form>
  );
}

/** /login/reset?key= (decision 146): the new password (and a username, for an account without one). */
export function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const [link, setLink] = useState<ResetLink | 'expired' | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const [doneAs, setDoneAs] = useState<string | null>(null);
  const { errors, alert, check, fail, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();
  const busy = pending !== null;

  useEffect(() => {
    let active = true;
    api.post('/username/password/reset/check/', { token }).then(
      ({ data }) => active && setLink(data),
      (failure: unknown) => active && (fieldErrorsOf(failure).token ? setLink('expired') : fail(failure)),
    );
    return () => {
      active = false;
    };
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- once per link
  }, [token]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!link || link === 'expired') return;
    if (!check(newCredentialErrors(t, { password, ...(link.needsUsername ? { username } : {}) }))) return;
    run('reset', async () => {
      try {
        const { data } = await api.post('/username/password/reset/', { token, password, ...(link.needsUsername ? { username: username.trim() } : {}) });
        setDoneAs(data.username);
      } catch (failure) {
        if (fieldErrorsOf(failure).token) setLink('expired');
        else fail(failure, ['password', 'username']);
      }
    });
  };

  const signIn = (
    <Link to={localePath(locale, '/login')} className={linkClass} data-testid="reset-sign-in">
      {t('recovery.signIn')}
    </Link>
  );
  if (doneAs)
    return (
      <div className="space-y-4" data-testid="reset-done">
        <p>{t('recovery.done', { username: doneAs })}</p>
        {signIn}
      </div>
    );
  if (link === 'expired')
    return (
      <div className="space-y-4" data-testid="reset-expired">
        <p>{t('reset.linkExpired')}</p>
        <Link to={localePath(locale, '/login/forgot')} className={linkClass}>
          {t('recovery.again')}
        </Link>
      </div>
    );
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="relative space-y-4" data-testid="reset-form">
      {link ? <p className="text-sm">{t('recovery.forAccount', { account: link.account })}</p> : null}
      {link?.needsUsername ? (
        <NewUsernameField label={t('profile.username')} value={username} onChange={setUsername} error={errors.username} disabled={busy} />
      ) : (
        <input type="text" name="username" autoComplete="username" value={link ? link.account : ''} readOnly hidden />
      )}
      <NewPasswordField label={t('profile.newPassword')} value={password} onChange={setPassword} show={show} error={errors.password} disabled={busy || !link} />
      <ShowPassword checked={show} onChange={setShow} disabled={busy} />
      <FormAlert message={alert} />
      <Button type="submit" className="w-full" disabled={busy || !link} data-testid="reset-submit">
        {t('recovery.save')}
      </Button>
      <LoadingOverlay show={busy || !link} />
    </form>
  );
}

/** /login/not-me?key= (decision 148): the link of a notice ends every session, then the member chooses a new password. */
export function NotMeForm({ keyOfLink }: { keyOfLink: string }) {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const navigate = useNavigate();
  const [expired, setExpired] = useState(false);
  const { alert, fail, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    run('not-me', async () => {
      try {
        const { data } = await api.post('/username/not-me/', { key: keyOfLink });
        void navigate(`${localePath(locale, '/login/reset')}?key=${data.resetKey}`, { replace: true });
      } catch (failure) {
        if (fieldErrorsOf(failure).key) setExpired(true);
        else fail(failure);
      }
    });
  };

  if (expired)
    return (
      <div className="space-y-4" data-testid="not-me-expired">
        <p>{t('notMe.expired')}</p>
        <Link to={localePath(locale, '/login/forgot')} className={linkClass}>
          {t('recovery.again')}
        </Link>
      </div>
    );
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="relative space-y-4" data-testid="not-me-form">
      <p>{t('notMe.intro')}</p>
      <FormAlert message={alert} />
      <Button type="submit" variant="danger" className="w-full" disabled={pending !== null} data-testid="not-me-submit">
        {t('notMe.submit')}
      </Button>
      <LoadingOverlay show={pending !== null} />
    </form>
  );
}
