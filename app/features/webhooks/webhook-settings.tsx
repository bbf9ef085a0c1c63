import { RefreshCw, RotateCw, Send } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import type { WebhookDelivery, WebhookSettings } from '#common/api/game-webhooks.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { fieldErrorsOf, messageOf } from '../../ui/form-errors.ts';
import { TextField } from '../../ui/form-field.tsx';
import { usePendingAction } from '../../ui/use-pending-action.ts';

const STATUS_CLASS: Record<WebhookDelivery['status'], string> = {
  pending: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  delivered: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  failed: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
};

/** The Studio's webhook page of one game (decision 100): the URL, the secret, a test event and the delivery log. */
export function WebhookSettingsPanel({ gameId }: { gameId: number }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const [settings, setSettings] = useState<WebhookSettings | null>(null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [shownSecret, setShownSecret] = useState<string | null>(null);
  const { pending, run } = usePendingAction();

  // Bumped after every change: the settings and log are read again from the server.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((n) => n + 1);
  useEffect(() => {
    let active = true;
    api.get(`/studio/games/${gameId}/webhook`).then(
      ({ data }) => {
        if (!active) return;
        setSettings(data);
        if (version === 0) setUrl(data.url ?? '');
      },
      (failure: unknown) => toast.add({ title: messageOf(failure, t('webhooks.failed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [gameId, t, version]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    run('save', async () => {
      setUrlError(null);
      try {
        const { data } = await api.put(`/studio/games/${gameId}/webhook`, { url: url.trim() || null });
        if (data.secret) setShownSecret(data.secret);
        toast.add({ title: data.url ? t('webhooks.url.saved') : t('webhooks.url.removed'), color: 'success' });
        reload();
      } catch (failure) {
        setUrlError(fieldErrorsOf(failure).url ?? messageOf(failure, t('webhooks.failed')));
      }
    });
  };

  const rotate = () =>
    run('rotate', async () => {
      const confirmed = await confirm({
        title: t('webhooks.secret.confirmTitle'),
        message: t('webhooks.secret.confirmText'),
        confirmButton: t('webhooks.secret.rotate'),
        cancelButton: t('webhooks.secret.cancel'),
        color: 'warning',
        icon: 'warning',
        type: 'warning',
      });
      if (!confirmed) return;
      try {
        const { data } = await api.post(`/studio/games/${gameId}/webhook/secret`);
        setShownSecret(data.secret);
        toast.add({ title: t('webhooks.secret.rotated'), color: 'success' });
        reload();
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('webhooks.failed')), color: 'error' });
      }
    });

  const sendTest = () =>
    run('test', async () => {
      try {
        const { data } = await api.post(`/studio/games/${gameId}/webhook/test`);
        toast.add({
          title: t('webhooks.test.sent', { status: t(`webhooks.status.${data.status}`) }),
          color: data.status === 'delivered' ? 'success' : 'warning',
        });
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('webhooks.failed')), color: 'error' });
      }
      reload();
    });

  const busy = pending !== null;
  return (
    <section className="space-y-8" data-testid="webhook-settings">
      <div className="space-y-2">
        <h2 className="text-xl font-semibold tracking-tight">{t('webhooks.title')}</h2>
        <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('webhooks.intro')}</p>
      </div>

      <form onSubmit={save} className="max-w-xl space-y-3" noValidate>
        <TextField
          label={t('webhooks.url.label')}
          hint={t('webhooks.url.help')}
          error={urlError}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('webhooks.url.placeholder')}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          // Editable once the saved URL is read, so what is typed is not replaced by it.
          disabled={settings === null}
          data-testid="webhook-url"
        />
        {settings && !settings.url ? (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200" data-testid="webhook-not-queued">
            {t('webhooks.url.notQueued')}
          </p>
        ) : null}
        <Button type="submit" disabled={busy || settings === null} data-testid="webhook-save">
          {t('webhooks.url.save')}
        </Button>
      </form>

      <div className="max-w-xl space-y-3">
        <h3 className="text-lg font-semibold">{t('webhooks.secret.title')}</h3>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{settings?.hasSecret ? t('webhooks.secret.help') : t('webhooks.secret.none')}</p>
        {settings?.secretCreatedAt ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {t('webhooks.secret.made', { time: formatDate(settings.secretCreatedAt, locale, 'medium') })}
          </p>
        ) : null}
        {settings?.previousSecretExpiresAt ? (
          <p className="text-sm text-amber-900 dark:text-amber-200" data-testid="webhook-secret-overlap">
            {t('webhooks.secret.overlap', { time: formatDate(settings.previousSecretExpiresAt, locale, 'medium') })}
          </p>
        ) : null}
        {shownSecret ? (
          <output className="block space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950">
            <span className="block text-sm font-medium">{t('webhooks.secret.newSecret')}</span>
            <code className="block break-all font-mono text-sm select-all" data-testid="webhook-secret">
              {shownSecret}
            </code>
          </output>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={rotate} disabled={busy || !settings?.hasSecret} data-testid="webhook-rotate">
            <RotateCw aria-hidden />
            {t('webhooks.secret.rotate')}
          </Button>
          <Button variant="secondary" onClick={sendTest} disabled={busy || !settings?.url} data-testid="webhook-test">
            <Send aria-hidden />
            {t('webhooks.test.send')}
          </Button>
        </div>
        {settings && !settings.url ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('webhooks.test.needsUrl')}</p> : null}
      </div>

      <div className="space-y-3">
        <div className="flex items-center gap-3">
          <h3 className="text-lg font-semibold">{t('webhooks.log.title')}</h3>
          <Button variant="ghost" size="sm" onClick={reload} disabled={busy} data-testid="webhook-refresh">
            <RefreshCw aria-hidden />
            {t('webhooks.log.refresh')}
          </Button>
        </div>
        <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('webhooks.log.retention')}</p>
        {settings && settings.deliveries.length === 0 ? <p className="text-sm">{t('webhooks.log.empty')}</p> : null}
        <ul
          className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          data-testid="webhook-log"
        >
          {(settings?.deliveries ?? []).map((delivery) => (
            <li key={delivery.id} className="space-y-1 px-4 py-3 text-sm" data-testid="webhook-delivery">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-mono font-medium">{delivery.eventType}</span>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[delivery.status]}`} data-testid="webhook-delivery-status">
                  {t(`webhooks.status.${delivery.status}`)}
                </span>
                <span className="text-zinc-600 dark:text-zinc-400">
                  {t('common:labelled', { label: t('webhooks.log.attempts'), value: String(delivery.attempts) })}
                </span>
                <span className="text-zinc-600 dark:text-zinc-400">{formatDate(delivery.createdAt, locale, 'medium')}</span>
              </div>
              <p className="break-all text-zinc-700 dark:text-zinc-300">
                {t('common:labelled', { label: t('webhooks.log.answer'), value: String(delivery.lastStatusCode ?? t('webhooks.log.noAnswer')) })}
                {delivery.refused
                  ? ` · ${t('webhooks.log.refused', { reason: t(`webhooks.errors.${delivery.refused}`) })}`
                  : delivery.lastError
                    ? ` · ${delivery.lastError}`
                    : ''}
                {delivery.nextAttemptAt && delivery.attempts > 0
                  ? ` · ${t('webhooks.log.nextAttempt', { time: formatDate(delivery.nextAttemptAt, locale, 'medium') })}`
                  : ''}
              </p>
              {delivery.lastResponse ? (
                <pre className="max-h-24 overflow-auto rounded bg-zinc-100 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-900">
                  {delivery.lastResponse}
                </pre>
              ) : null}
              <p className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{delivery.eventId}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
