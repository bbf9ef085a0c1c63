import { type FormEvent, type HTMLInputTypeAttribute, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import type { z } from 'zod';
import { NicknameSchema, PhoneSchema } from '#common/api/accounts.schema.ts';
import type { Locale } from '#common/locales.ts';
import { internationalPhone } from '#common/phone-numbers.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { CurrentPasswordField, NewPasswordField, NewUsernameField, newCredentialErrors, ShowPassword } from './credential-fields.tsx';
import { schemaError, useFormErrors } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { useProfile } from './profile-context.tsx';
import { session } from './session.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';

interface FieldSpec {
  field: 'nickname' | 'phone';
  schema: z.ZodType;
  type: HTMLInputTypeAttribute;
  autoComplete: string;
  inputMode?: 'text' | 'tel';
  /** Whether an empty value removes the field (phone) or is refused (nickname). */
  removable: boolean;
  /** What is checked and sent for what the visitor typed (a phone number's country code). */
  sent?: (typed: string, locale: Locale) => string;
}

const FIELDS: Record<FieldSpec['field'], FieldSpec> = {
  nickname: { field: 'nickname', schema: NicknameSchema, type: 'text', autoComplete: 'nickname', removable: false },
  phone: { field: 'phone', schema: PhoneSchema, type: 'tel', autoComplete: 'tel', inputMode: 'tel', removable: true, sent: internationalPhone },
};

/**
 * One profile field (nickname or phone; the email page has its own form, email-settings.tsx): checked in the browser with the API's own
 * schema, saved with PATCH /member/{field}/, the server's field message shown under it.
 */
export function ProfileFieldForm({ field }: { field: FieldSpec['field'] }) {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const spec = FIELDS[field];
  const { profile, apply } = useProfile();
  const [value, setValue] = useState(profile[field] ?? '');
  const [current, setCurrent] = useState('');
  const { errors, alert, check, fail, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();
  // A member's saved phone number is changed only with the password (ASVS 7.5.1, decision 146).
  const asksPassword = field === 'phone' && !profile.isGuest && profile.hasPassword && profile.phone !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = spec.sent ? spec.sent(value, locale) : value;
    const local = schemaError(spec.schema, sent, t);
    const found: Record<string, string> = local ? { [field]: local } : {};
    if (asksPassword && !current) found.currentPassword = t('password.currentRequired');
    if (!check(found)) return;
    run('save', async () => {
      try {
        const body = { [field]: sent, ...(asksPassword ? { currentPassword: current } : {}) } as Record<typeof field, string>;
        const { data } = await api.patch(`/member/${field}/`, body);
        apply(data);
        setValue(data.profile[field] ?? '');
        setCurrent('');
        const removed = spec.removable && data.profile[field] === null;
        toast.add({ title: t(`profile.${field}${removed ? 'Removed' : 'Saved'}`), color: 'success' });
      } catch (failure) {
        fail(failure, [field, 'currentPassword']);
      }
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="relative space-y-4" data-testid={`profile-${field}-form`}>
      <TextField
        label={t(`profile.${field}`)}
        name={field}
        type={spec.type}
        inputMode={spec.inputMode}
        autoComplete={spec.autoComplete}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        hint={t(`profile.${field}Hint`)}
        error={errors[field]}
        disabled={pending !== null}
      />
      {asksPassword ? (
        <CurrentPasswordField value={current} onChange={setCurrent} hint={t('phone.passwordHint')} error={errors.currentPassword} disabled={pending !== null} />
      ) : null}
      <FormAlert message={alert} />
      <Button type="submit" disabled={pending !== null} data-testid="profile-save">
        {t('profile.save')}
      </Button>
      <LoadingOverlay show={pending !== null} />
    </form>
  );
}

/**
 * Sets or changes the password. A member with a password gives the current one (every other
 * device is then signed out); one without sets it, with a username if there is none yet.
 */
export function PasswordForm() {
  const { t } = useTranslation('accounts');
  const { profile, apply } = useProfile();
  const [username, setUsername] = useState(profile.username ?? '');
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const { errors, alert, check, fail, formRef } = useFormErrors();
  const { pending, run } = usePendingAction();
  const needsUsername = profile.username === null;
  const busy = pending !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = newCredentialErrors(t, { password, ...(needsUsername ? { username } : {}) });
    if (profile.hasPassword && !current) found.currentPassword = t('password.currentRequired');
    if (!check(found)) return;
    run('save', async () => {
      try {
        const body = { password, ...(needsUsername ? { username: username.trim() } : {}), ...(profile.hasPassword ? { currentPassword: current } : {}) };
        const { data } = await api.patch('/member/password/', body);
        // The session is rotated: the token this page used stops working.
        session.adoptRotated(data);
        apply(data);
        setCurrent('');
        setPassword('');
        toast.add({ title: t(profile.hasPassword ? 'profile.passwordChanged' : 'profile.passwordSaved'), color: 'success' });
      } catch (failure) {
        fail(failure);
      }
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="relative space-y-4" data-testid="profile-password-form">
      {/* Password managers file the new password under this username. */}
      {needsUsername ? (
        <NewUsernameField label={t('profile.username')} value={username} onChange={setUsername} error={errors.username} disabled={busy} />
      ) : (
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      )}
      {profile.hasPassword ? <CurrentPasswordField value={current} onChange={setCurrent} show={show} error={errors.currentPassword} disabled={busy} /> : null}
      <NewPasswordField label={t('profile.newPassword')} value={password} onChange={setPassword} show={show} error={errors.password} disabled={busy} />
      <ShowPassword checked={show} onChange={setShow} disabled={busy} />
      <FormAlert message={alert} />
      <Button type="submit" disabled={busy} data-testid="profile-save">
        {t('profile.save')}
      </Button>
      <LoadingOverlay show={busy} />
    </form>
  );
}
