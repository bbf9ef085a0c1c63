import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import type { TwoFactorSetUp, TwoFactorStatus } from '#common/api/two-factor.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { messageOf, useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, TextField } from '../../ui/form-field.tsx';
import { CurrentPasswordField } from '../accounts/credential-fields.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { useProfile } from '../accounts/profile-context.tsx';

/**
 * /user/profile/two-factor (decision 145): turn two-step sign-in on with an authenticator app (a
 * QR code, then the first code), keep the ten recovery codes, get new ones, or turn it off.
 */
export function TwoFactorSettings() {
  const { t } = useTranslation('accounts');
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [setUp, setSetUp] = useState<TwoFactorSetUp | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const { pending, run } = usePendingAction();

  useEffect(() => {
    let active = true;
    api.get('/user/two-factor/').then(
      ({ data }) => active && setStatus(data),
      (failure: unknown) => active && toast.add({ title: messageOf(failure, t('errors:generic')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [t]);

  const begin = () =>
    run('set-up', async () => {
      try {
        setSetUp((await api.post('/user/two-factor/set-up')).data);
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('errors:generic')), color: 'error' });
      }
    });

  if (recoveryCodes)
    return (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={async () => {
          setRecoveryCodes(null);
          setStatus((await api.get('/user/two-factor/')).data);
        }}
      />
    );
  if (setUp)
    return (
      <ConfirmSetUp
        setUp={setUp}
        onConfirmed={(codes) => {
          setSetUp(null);
          setRecoveryCodes(codes);
        }}
      />
    );
  return (
    <div className="space-y-4" data-testid="two-factor" data-enabled={status?.enabled ?? 'loading'}>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('twoFactor.intro')}</p>
      {status === null ? null : status.enabled ? (
        <EnabledPanel status={status} onChange={setStatus} onNewCodes={setRecoveryCodes} />
      ) : (
        <Button onClick={begin} disabled={pending !== null} data-testid="two-factor-begin">
          <ShieldCheck aria-hidden />
          {t('twoFactor.turnOn')}
        </Button>
      )}
    </div>
  );
}

function ConfirmSetUp({ setUp, onConfirmed }: { setUp: TwoFactorSetUp; onConfirmed: (codes: string[]) => void }) {
  const { t } = useTranslation('accounts');
  const [code, setCode] = useState('');
  const { errors, alert, fail, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run('confirm', async () => {
      try {
        onConfirmed((await api.post('/user/two-factor/confirm', { code })).data.recoveryCodes);
      } catch (failure) {
        setCode('');
        fail(failure, ['code']);
      }
    });
  };
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-4" data-testid="two-factor-set-up">
      <p className="text-sm">{t('twoFactor.scan')}</p>
      <img src={setUp.qrCode} alt={t('twoFactor.scan')} width={200} height={200} className="rounded-lg bg-white p-2" data-testid="two-factor-qr" />
      <div className="text-sm">
        <span className="font-medium">{t('twoFactor.key')}: </span>
        <code className="font-mono break-all select-all" data-testid="two-factor-key">
          {setUp.secret.replaceAll(/(.{4})/g, '$1 ').trim()}
        </code>
      </div>
      <TextField
        label={t('twoFactor.firstCode')}
        name="one-time-code"
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={errors.code}
        disabled={pending !== null}
      />
      <FormAlert message={alert} />
      <Button type="submit" disabled={pending !== null} data-testid="two-factor-confirm">
        {t('twoFactor.confirm')}
      </Button>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('accounts');
  return (
    <div className="space-y-4" data-testid="two-factor-recovery-codes">
      <h2 className="text-base font-semibold">{t('twoFactor.savedTitle')}</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('twoFactor.saveCodes')}</p>
      <ul className="grid grid-cols-2 gap-2 rounded-xl border border-zinc-200 p-4 font-mono text-sm dark:border-zinc-800">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button onClick={onDone} data-testid="two-factor-codes-saved">
        {t('twoFactor.savedDone')}
      </Button>
    </div>
  );
}

function EnabledPanel({
  status,
  onChange,
  onNewCodes,
}: {
  status: TwoFactorStatus;
  onChange: (status: TwoFactorStatus) => void;
  onNewCodes: (codes: string[]) => void;
}) {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const { profile } = useProfile();
  const [currentPassword, setCurrentPassword] = useState('');
  const { errors, alert, fail, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();
  const body = profile.hasPassword ? { currentPassword } : {};
  const act = (action: 'disable' | 'codes') =>
    run(action, async () => {
      try {
        if (action === 'disable') {
          onChange((await api.post('/user/two-factor/disable', body)).data);
          toast.add({ title: t('twoFactor.turnedOff'), color: 'success' });
        } else onNewCodes((await api.post('/user/two-factor/recovery-codes', body)).data.recoveryCodes);
        setCurrentPassword('');
      } catch (failure) {
        fail(failure, ['currentPassword']);
      }
    });
  return (
    <form ref={formRef} onSubmit={(event) => event.preventDefault()} noValidate className="space-y-4">
      <div className="rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="two-factor-on">
        <div className="font-medium">{t('twoFactor.on')}</div>
        <div className="text-zinc-600 dark:text-zinc-400">
          {status.enabledAt ? t('twoFactor.enabledSince', { date: formatDate(status.enabledAt, locale) }) : null} ·{' '}
          {t('twoFactor.codesLeft', { count: status.recoveryCodesLeft })}
        </div>
      </div>
      {profile.hasPassword ? (
        <CurrentPasswordField
          label={t('twoFactor.currentPassword')}
          hint={t('twoFactor.identityHint')}
          value={currentPassword}
          onChange={setCurrentPassword}
          error={errors.currentPassword}
          disabled={pending !== null}
        />
      ) : null}
      <FormAlert message={alert} />
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={() => act('codes')} disabled={pending !== null} data-testid="two-factor-new-codes">
          {t('twoFactor.newCodes')}
        </Button>
        <Button type="button" variant="danger" onClick={() => act('disable')} disabled={pending !== null} data-testid="two-factor-disable">
          {t('twoFactor.turnOff')}
        </Button>
      </div>
    </form>
  );
}
