import { Check, Copy, KeyRound, Trash2 } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import type { StudioKey } from '#common/api/studio-keys.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { toast } from '../../shell/toast-store.ts';
import { useCopy } from '../../shell/use-copy.ts';
import { Button, buttonVariants } from '../../ui/button.tsx';
import { fieldErrorsOf, messageOf } from '../../ui/form-errors.ts';
import { TextField } from '../../ui/form-field.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';

/**
 * The Studio's API keys (decision 102): make one with a name (its whole value shown this once,
 * with a copy button), see each key's name, creation and last use, revoke one after a confirmation.
 */
export function StudioKeysPanel({ keys, max }: { keys: StudioKey[] | null; max: number }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const { revalidate } = useRevalidator();
  const { copy, copied } = useCopy();
  const { pending, run } = usePendingAction();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const shownRef = useRef<HTMLOutputElement>(null);

  if (keys === null) {
    return (
      <section className="space-y-3" aria-labelledby="studio-keys-title">
        <h2 id="studio-keys-title" className="text-xl font-semibold tracking-tight">
          {t('keys.title')}
        </h2>
        <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('keys.needsProfile')}</p>
        <Link to={localePath(locale, '/studio/profile')} className={buttonVariants({ variant: 'secondary' })}>
          {t('keys.createProfile')}
        </Link>
      </section>
    );
  }

  const full = keys.length >= max;
  const busy = pending !== null;

  const create = (event: FormEvent) => {
    event.preventDefault();
    run('create', async () => {
      setNameError(null);
      try {
        const { data } = await api.post('/studio/keys/', { name: name.trim() });
        setShown({ name: data.name, key: data.key });
        setName('');
        toast.add({ title: t('keys.created'), color: 'success' });
        revalidate();
        // The new key is where the reader goes next: to copy it.
        requestAnimationFrame(() => shownRef.current?.focus());
      } catch (failure) {
        setNameError(fieldErrorsOf(failure).name ?? messageOf(failure, t('keys.failed')));
      }
    });
  };

  const revoke = (key: StudioKey) =>
    run(`revoke-${key.id}`, async () => {
      const confirmed = await confirm({
        title: t('keys.revoke.title'),
        message: t('keys.revoke.text', { name: key.name }),
        confirmButton: t('keys.revoke.confirm'),
        cancelButton: t('keys.revoke.cancel'),
        color: 'error',
        icon: 'warning',
        type: 'warning',
      });
      if (!confirmed) return;
      try {
        await api.delete(`/studio/keys/${key.id}`);
        toast.add({ title: t('keys.revoke.done'), color: 'success' });
        revalidate();
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('keys.failed')), color: 'error' });
      }
    });

  return (
    <section className="space-y-8" aria-labelledby="studio-keys-title" data-testid="studio-keys">
      <div className="space-y-2">
        <h2 id="studio-keys-title" className="text-xl font-semibold tracking-tight">
          {t('keys.title')}
        </h2>
        <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('keys.intro')}</p>
      </div>

      <form onSubmit={create} className="max-w-xl space-y-3" noValidate>
        <TextField
          label={t('keys.name.label')}
          hint={t('keys.name.hint')}
          error={nameError}
          autoComplete="off"
          maxLength={60}
          placeholder={t('keys.name.placeholder')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          data-testid="key-name"
        />
        <Button type="submit" disabled={busy || full} data-testid="key-create">
          <KeyRound aria-hidden />
          {t('keys.create')}
        </Button>
        {full ? <p className="text-sm text-amber-800 dark:text-amber-300">{t('keys.full', { max })}</p> : null}
      </form>

      {shown ? (
        <output
          ref={shownRef}
          tabIndex={-1}
          className="block max-w-xl space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-amber-800 dark:bg-amber-950"
          data-testid="key-shown"
        >
          <span className="block text-sm font-medium">{t('common:labelled', { label: t('keys.shown.title'), value: shown.name })}</span>
          <span className="block text-sm text-zinc-700 dark:text-zinc-300">{t('keys.shown.text')}</span>
          <code className="block font-mono text-sm break-all select-all" data-testid="key-value">
            {shown.key}
          </code>
          <span className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={() => void copy(shown.key)} data-testid="key-copy">
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              {copied ? t('keys.shown.copied') : t('keys.shown.copy')}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setShown(null)} data-testid="key-done">
              {t('keys.shown.done')}
            </Button>
          </span>
        </output>
      ) : null}

      <div className="space-y-3">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h3 className="text-lg font-semibold">{t('keys.list.title')}</h3>
          <span className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="key-count">
            {t('keys.list.count', { count: keys.length, max })}
          </span>
        </div>
        {keys.length === 0 ? <p className="text-sm">{t('keys.list.empty')}</p> : null}
        <ul
          className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          data-testid="key-list"
        >
          {keys.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="key-row">
              <div className="min-w-0 space-y-0.5">
                <p className="font-medium break-words" data-testid="key-row-name">
                  {key.name}
                </p>
                <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{key.prefix}…</p>
                <p className="text-zinc-600 dark:text-zinc-400">
                  {t('keys.list.created', { time: formatDate(key.createdAt, locale, 'medium') })}
                  {' · '}
                  {key.lastUsedAt ? t('keys.list.lastUsed', { time: formatDate(key.lastUsedAt, locale, 'medium') }) : t('keys.list.neverUsed')}
                </p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => revoke(key)}
                disabled={busy}
                aria-label={t('keys.list.revokeLabel', { name: key.name })}
                data-testid="key-revoke"
              >
                <Trash2 aria-hidden />
                {t('keys.list.revoke')}
              </Button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
