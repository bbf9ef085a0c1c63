import { Fingerprint } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import { ApiError, api } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { NewPasswordField, NewUsernameField, newCredentialErrors, ShowPassword } from './credential-fields.tsx';
import { messageOf, useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { PasskeyLoginButton, usePasskeyAutofill } from '../passkeys/passkey-sign-in.tsx';
import { SocialSignIn } from '../social/social-sign-in.tsx';
import { session } from './session.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { useSession } from './use-session.ts';

export type LoginMode = 'sign-in' | 'create';

type Run = (id: string, action: () => Promise<void>) => void;

/**
 * The login list (spec sections 2 and 4): username and password, this device, and for a guest
 * (or a visitor without a session) the creation of an account that keeps the guest's games.
 * One action at a time: while it runs the other buttons are disabled under a loading overlay.
 * Passkeys: a button, and the username field's autofill (decision 062); then the social
 * platforms this portal offers (decision 063).
 */
export function LoginList({ initialMode = 'sign-in', onDone }: { initialMode?: LoginMode; onDone: (how: LoginMode, userInfo: UserInfo) => void }) {
  const { t } = useTranslation('accounts');
  const { isMember } = useSession();
  const { pending, run } = usePendingAction();
  const [mode, setMode] = useState<LoginMode>(initialMode);
  const busy = pending !== null;
  const signIn = (
    <>
      <PasswordSignIn run={run} busy={busy} onDone={(userInfo) => onDone('sign-in', userInfo)} />
      <DeviceSignIn run={run} busy={busy} onDone={(userInfo) => onDone('sign-in', userInfo)} />
      <PasskeyLoginButton action="sign-in" run={run} busy={busy} onDone={(userInfo) => onDone('sign-in', userInfo)} />
      <SocialSignIn run={run} busy={busy} onDone={(userInfo) => onDone('sign-in', userInfo)} />
    </>
  );
  return (
    <div className="relative rounded-xl" data-testid="login-list" aria-busy={busy}>
      {isMember ? (
        signIn
      ) : (
        <Tabs.Root value={mode} onValueChange={(value) => setMode(value as LoginMode)}>
          <Tabs.List aria-label={t('login.modes')} className="grid grid-cols-2 gap-1 rounded-xl bg-zinc-100 p-1 dark:bg-zinc-800">
            {(['sign-in', 'create'] as const).map((value) => (
              <Tabs.Trigger
                key={value}
                value={value}
                disabled={busy}
                className={cn(
                  'min-h-9 cursor-pointer rounded-lg px-2 text-sm text-zinc-600 transition-colors hover:text-zinc-900 disabled:cursor-not-allowed dark:text-zinc-300 dark:hover:text-zinc-50',
                  'data-[state=active]:bg-white data-[state=active]:font-medium data-[state=active]:text-zinc-900 data-[state=active]:shadow-sm',
                  'dark:data-[state=active]:bg-zinc-950 dark:data-[state=active]:text-zinc-50',
                  focusRing,
                )}
              >
                {value === 'sign-in' ? t('login.signIn') : t('login.create')}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {/* Each panel starts with its own fields: the panel itself is no extra tab stop. */}
          <Tabs.Content value="sign-in" tabIndex={-1} className="mt-5 outline-none">
            {signIn}
          </Tabs.Content>
          <Tabs.Content value="create" tabIndex={-1} className="mt-5 outline-none">
            <CreateAccount run={run} busy={busy} onDone={(userInfo) => onDone('create', userInfo)} />
            <PasskeyLoginButton action="create" run={run} busy={busy} onDone={(userInfo) => onDone('create', userInfo)} />
          </Tabs.Content>
        </Tabs.Root>
      )}
      <LoadingOverlay show={busy} />
    </div>
  );
}

interface ActionProps {
  run: Run;
  busy: boolean;
  onDone: (userInfo: UserInfo) => void;
}

function PasswordSignIn({ run, busy, onDone }: ActionProps) {
  const { t } = useTranslation('accounts');
  const { isMember } = useSession();
  // A member switching accounts uses the passkey button; the autofill is for signing in.
  usePasskeyAutofill(!isMember, onDone);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // After a refused attempt the password is typed again: focus it once the form is enabled.
  const [refocus, setRefocus] = useState(0);
  useEffect(() => {
    if (refocus > 0 && !busy) passwordRef.current?.focus();
  }, [refocus, busy]);
  // Two-step sign-in (decision 145): the right password earned a ticket; the code completes the sign-in.
  const [pendingTicket, setTicket] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) {
      setError(t('login.missing'));
      return;
    }
    run('password', async () => {
      setError(null);
      try {
        onDone(await session.signInWithPassword(username, password));
      } catch (failure) {
        // Two-step sign-in on: a 401 whose data carries the ticket of the code step.
        const earned = failure instanceof ApiError && failure.status === 401 ? (failure.data as { ticket?: unknown } | null)?.ticket : null;
        if (typeof earned === 'string') {
          setTicket(earned);
          return;
        }
        setError(messageOf(failure, t('errors:generic')));
        setPassword('');
        setRefocus((n) => n + 1);
      }
    });
  };

  if (pendingTicket)
    return (
      <TwoFactorStep
        ticket={pendingTicket}
        run={run}
        busy={busy}
        onDone={onDone}
        onBack={(message) => {
          setTicket(null);
          setPassword('');
          setError(message ?? null);
        }}
      />
    );
  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="password-sign-in">
      <TextField
        label={t('login.username')}
        name="username"
        autoComplete="username webauthn"
        autoCapitalize="none"
        spellCheck={false}
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        disabled={busy}
      />
      <TextField
        ref={passwordRef}
        label={t('login.password')}
        name="password"
        type={show ? 'text' : 'password'}
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        disabled={busy}
      />
      <ShowPassword checked={show} onChange={setShow} disabled={busy} />
      <FormAlert message={error} />
      <Button type="submit" className="w-full" disabled={busy} data-testid="password-sign-in-submit">
        {t('login.submit')}
      </Button>
    </form>
  );
}

/** The code step of a password sign-in with two-step sign-in on: a code of the app or a recovery code. */
function TwoFactorStep({ ticket, run, busy, onDone, onBack }: ActionProps & { ticket: string; onBack: (message?: string) => void }) {
  const { t } = useTranslation('accounts');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  // The code field takes the focus when the step opens and after each refused code.
  useEffect(() => {
    if (!busy) codeRef.current?.focus();
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- `error` is the trigger: a refused code is typed again
  }, [busy, error]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('twoFactor.codeRequired'));
      return;
    }
    run('two-factor', async () => {
      setError(null);
      try {
        const { data } = await api.post('/username/login/two-factor/', { ticket, code: code.trim() });
        onDone(await session.setToken(data.token));
      } catch (failure) {
        const message = messageOf(failure, t('errors:generic'));
        setCode('');
        // An expired ticket: back to the password, saying why.
        if (failure instanceof ApiError && failure.status === 401) onBack(message);
        else setError(message);
      }
    });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="two-factor-sign-in">
      <div>
        <h2 className="text-base font-semibold">{t('twoFactor.signInTitle')}</h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('twoFactor.signInHint')}</p>
      </div>
      <TextField
        ref={codeRef}
        label={t('twoFactor.signInCode')}
        name="one-time-code"
        autoComplete="one-time-code"
        inputMode="text"
        autoCapitalize="none"
        spellCheck={false}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        disabled={busy}
      />
      <FormAlert message={error} />
      <div className="flex gap-2">
        <Button type="button" variant="secondary" onClick={() => onBack()} disabled={busy}>
          {t('twoFactor.signInBack')}
        </Button>
        <Button type="submit" className="flex-1" disabled={busy} data-testid="two-factor-submit">
          {t('twoFactor.signInSubmit')}
        </Button>
      </div>
    </form>
  );
}

function DeviceSignIn({ run, busy, onDone }: ActionProps) {
  const { t } = useTranslation('accounts');
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();
  const start = () =>
    run('device', async () => {
      setError(null);
      try {
        onDone(await session.signInWithDevice());
      } catch (failure) {
        setError(messageOf(failure, t('errors:generic')));
      }
    });
  return (
    <div className="mt-5 space-y-3">
      <div className="flex items-center gap-3 text-xs text-zinc-500 uppercase dark:text-zinc-400" aria-hidden>
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        {t('login.or')}
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
      </div>
      <Button variant="secondary" className="w-full" onClick={start} disabled={busy} aria-describedby={hintId} data-testid="device-sign-in">
        <Fingerprint aria-hidden />
        {t('login.device')}
      </Button>
      <p id={hintId} className="text-center text-xs text-zinc-500 dark:text-zinc-400">
        {t('login.deviceHint')}
      </p>
      <FormAlert message={error} />
    </div>
  );
}

function CreateAccount({ run, busy, onDone }: ActionProps) {
  const { t } = useTranslation('accounts');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const { errors, alert, check, fail, formRef } = useFormErrors();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!check(newCredentialErrors(t, { username, password }))) return;
    run('create', async () => {
      try {
        const { userInfo } = await session.becomeMember(username.trim(), password);
        onDone(userInfo);
      } catch (failure) {
        fail(failure);
      }
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-4" data-testid="create-account">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('login.createIntro')}</p>
      <NewUsernameField label={t('login.username')} value={username} onChange={setUsername} error={errors.username} disabled={busy} />
      <NewPasswordField label={t('login.password')} value={password} onChange={setPassword} show={show} error={errors.password} disabled={busy} />
      <ShowPassword checked={show} onChange={setShow} disabled={busy} />
      <FormAlert message={alert} />
      <Button type="submit" className="w-full" disabled={busy} data-testid="create-account-submit">
        {t('login.createSubmit')}
      </Button>
    </form>
  );
}
