import type { Translate } from '#common/i18n/translator.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { PasswordSchema, UsernameSchema } from '#common/api/accounts.schema.ts';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { schemaError } from '../../ui/form-errors.ts';
import { TextField } from '../../ui/form-field.tsx';

/** The fields of a new sign-in: a username and a new password, as registration and the profile ask them. */

interface FieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  disabled?: boolean;
}

export function NewUsernameField({ label, value, onChange, error, disabled }: FieldProps & { label: string }) {
  const { t } = useTranslation('accounts');
  return (
    <TextField
      label={label}
      name="username"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hint={t('login.usernameHint')}
      error={error}
      disabled={disabled}
    />
  );
}

/** The account's current password, asked before a sensitive change (ASVS 7.5.1); labelled "Current password" unless told otherwise. */
export function CurrentPasswordField({
  value,
  onChange,
  error,
  disabled,
  show = false,
  label,
  hint,
}: FieldProps & { show?: boolean; label?: string; hint?: string }) {
  const { t } = useTranslation('accounts');
  return (
    <TextField
      label={label ?? t('profile.currentPassword')}
      name="current-password"
      type={show ? 'text' : 'password'}
      autoComplete="current-password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hint={hint}
      error={error}
      disabled={disabled}
    />
  );
}

export function NewPasswordField({ label, value, onChange, error, disabled, show }: FieldProps & { label: string; show: boolean }) {
  const { t } = useTranslation('accounts');
  return (
    <TextField
      label={label}
      name="new-password"
      type={show ? 'text' : 'password'}
      autoComplete="new-password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hint={t('login.passwordHint')}
      error={error}
      disabled={disabled}
    />
  );
}

/** The browser's check of a new username (when one is asked) and password, with the API's schemas. */
export function newCredentialErrors(t: Translate, fields: { username?: string; password: string }): Record<string, string> {
  const found: Record<string, string> = {};
  if (fields.username !== undefined) {
    const usernameError = fields.username.trim() ? schemaError(UsernameSchema, fields.username, t) : t('username.required');
    if (usernameError) found.username = usernameError;
  }
  const passwordError = schemaError(PasswordSchema, fields.password, t);
  if (passwordError) found.password = passwordError;
  return found;
}

/** Shows the password fields' text, for typing on small keyboards. */
export function ShowPassword({ checked, onChange, disabled }: { checked: boolean; onChange: (value: boolean) => void; disabled?: boolean }) {
  const { t } = useTranslation('accounts');
  return (
    <label className="flex w-fit cursor-pointer items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        disabled={disabled}
        className={cn('size-4 cursor-pointer rounded border-zinc-300 accent-green-700 dark:accent-green-500', focusRing)}
      />
      {t('login.showPassword')}
    </label>
  );
}
