import { KeyRound, Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import type { Translate } from '#common/i18n/translator.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { Link } from 'react-router';
import { localePath } from '#common/locales.ts';
import type { Passkey } from '#common/api/passkeys.schema.ts';
import { PASSKEY_NAME_MAX } from '#common/api/passkeys.schema.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button, buttonVariants } from '../../ui/button.tsx';
import { messageOf } from '../../ui/form-errors.ts';
import { FormAlert, LoadingOverlay, TextField } from '../../ui/form-field.tsx';
import { session } from '../accounts/session.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';
import { useSession } from '../accounts/use-session.ts';
import { createPasskey, passkeyFailure } from './passkey-ceremonies.ts';
import { usePasskeySupport } from './passkey-sign-in.tsx';

/** Registers a passkey for the signed-in account, telling how it went; `after` runs on success. */
async function createAndTell(t: Translate, after?: () => void): Promise<void> {
  try {
    await createPasskey();
    toast.add({ title: t('manage.added'), color: 'success' });
    after?.();
  } catch (failure) {
    const { message, color } = passkeyFailure(failure, 'registration', t);
    toast.add({ title: message, color });
  }
}

/**
 * The passkey row of the bind list on /user/profile/social (spec section 4): "Create" when the
 * account has none, "Manage" when it has; only where the browser supports WebAuthn.
 */
export function PasskeyBindRow() {
  const { t } = useTranslation('passkeys');
  const locale = useLocale();
  const supported = usePasskeySupport();
  const { userInfo } = useSession();
  const { pending, run } = usePendingAction();
  const create = () => run('create', () => createAndTell(t));
  return (
    <li className="flex items-center gap-3 px-4 py-3" data-testid="bind-passkey">
      <KeyRound className="size-5 text-zinc-500" aria-hidden />
      <span className="flex-1 font-medium">{t('bind.label')}</span>
      {!supported ? (
        <span className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="passkey-unsupported">
          {t('unsupported')}
        </span>
      ) : userInfo?.webauthn ? (
        <Link to={localePath(locale, '/user/profile/passkey')} className={buttonVariants({ variant: 'secondary', size: 'sm' })} data-testid="passkey-manage">
          {t('bind.manage')}
        </Link>
      ) : (
        <Button size="sm" onClick={create} disabled={pending !== null} data-testid="passkey-create">
          {t('bind.create')}
        </Button>
      )}
    </li>
  );
}

/** /user/profile/passkey: the member's passkeys with name, created and last used; rename, delete, add. */
export function PasskeyManager() {
  const { t } = useTranslation('passkeys');
  const locale = useLocale();
  const supported = usePasskeySupport();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const { pending, run } = usePendingAction();

  // Bumped after every change: the list is read again from the server.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((n) => n + 1);
  useEffect(() => {
    let active = true;
    api.get('/webauthn/credential/list/').then(
      ({ data }) => active && setPasskeys(data.items),
      (failure: unknown) => toast.add({ title: messageOf(failure, t('failed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- `version` is the trigger: each change reads the list again
  }, [t, version]);

  const add = () => run('add', () => createAndTell(t, reload));

  const remove = (passkey: Passkey) =>
    run(`delete-${passkey.id}`, async () => {
      const confirmed = await confirm({
        title: t('manage.deleteTitle'),
        message: t('manage.deleteBody', { name: passkey.name }),
        confirmButton: t('manage.delete'),
        cancelButton: t('manage.cancel'),
        color: 'warning',
        icon: 'warning',
        type: 'warning',
      });
      if (!confirmed) return;
      try {
        const { data } = await api.delete(`/webauthn/credential/${passkey.id}`);
        session.updateUserInfo(data.userInfo);
        toast.add({ title: t('manage.deleted'), color: 'success' });
        reload();
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('failed')), color: 'error' });
      }
    });

  return (
    <div className="relative space-y-4" data-testid="passkey-manager">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('manage.intro')}</p>
      {passkeys && passkeys.length === 0 ? <p className="text-sm">{t('manage.empty')}</p> : null}
      <ul className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {(passkeys ?? []).map((passkey) => (
          <li key={passkey.id} className="px-4 py-3" data-testid="passkey-item">
            {editing === passkey.id ? (
              <RenameForm
                passkey={passkey}
                onDone={(renamed) => {
                  setEditing(null);
                  if (renamed) reload();
                }}
              />
            ) : (
              <div className="flex items-center gap-3">
                <KeyRound className="size-5 shrink-0 text-zinc-500" aria-hidden />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium" data-testid="passkey-name">
                    {passkey.name}
                  </p>
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">
                    {t('manage.created', { date: formatDate(passkey.createdAt, locale) })} ·{' '}
                    {passkey.lastUsedAt ? t('manage.lastUsed', { date: formatDate(passkey.lastUsedAt, locale) }) : t('manage.neverUsed')}
                    {passkey.backedUp ? ` · ${t('manage.synced')}` : ''}
                  </p>
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setEditing(passkey.id)}
                  disabled={pending !== null}
                  aria-label={t('common:labelled', { label: t('manage.rename'), value: passkey.name })}
                  data-testid="passkey-rename"
                >
                  <Pencil aria-hidden />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => remove(passkey)}
                  disabled={pending !== null}
                  aria-label={t('common:labelled', { label: t('manage.delete'), value: passkey.name })}
                  data-testid="passkey-delete"
                >
                  <Trash2 aria-hidden />
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {supported ? (
        <Button variant="secondary" onClick={add} disabled={pending !== null} data-testid="passkey-add">
          <KeyRound aria-hidden />
          {t('manage.add')}
        </Button>
      ) : (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('unsupported')}</p>
      )}
      <LoadingOverlay show={pending === 'add'} />
    </div>
  );
}

function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: (renamed: boolean) => void }) {
  const { t } = useTranslation('passkeys');
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const { pending, run } = usePendingAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('errors.nameRequired'));
      return;
    }
    run('rename', async () => {
      try {
        await api.patch(`/webauthn/credential/${passkey.id}`, { name });
        toast.add({ title: t('manage.renamed'), color: 'success' });
        onDone(true);
      } catch (failure) {
        setError(messageOf(failure, t('failed')));
      }
    });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="passkey-rename-form">
      <TextField
        label={t('manage.nameLabel')}
        name="passkey-name"
        value={name}
        maxLength={PASSKEY_NAME_MAX}
        onChange={(e) => setName(e.target.value)}
        disabled={pending !== null}
      />
      <FormAlert message={error} />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending !== null} data-testid="passkey-rename-save">
          {t('manage.save')}
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={() => onDone(false)} disabled={pending !== null}>
          {t('manage.cancel')}
        </Button>
      </div>
    </form>
  );
}
