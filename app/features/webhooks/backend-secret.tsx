import { KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { BackendSecretStatus } from '#common/api/game-webhooks.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { messageOf } from '../../ui/form-errors.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';

/**
 * The Studio's backend secret of one game (decision 110): when it was made, until when the one it
 * replaced still works, and a button that makes a new one, shown once.
 */
export function BackendSecretPanel({ gameId }: { gameId: number }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const [status, setStatus] = useState<BackendSecretStatus | null>(null);
  const [shownSecret, setShownSecret] = useState<string | null>(null);
  const { pending, run } = usePendingAction();

  useEffect(() => {
    let active = true;
    api.get(`/studio/games/${gameId}/backend-secret`).then(
      ({ data }) => {
        if (active) setStatus(data);
      },
      (failure: unknown) => toast.add({ title: messageOf(failure, t('webhooks.failed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [gameId, t]);

  const make = () =>
    run('backend-secret', async () => {
      if (status?.hasSecret) {
        const confirmed = await confirm({
          title: t('webhooks.backend.confirmTitle'),
          message: t('webhooks.backend.confirmText'),
          confirmButton: t('webhooks.backend.rotate'),
          cancelButton: t('webhooks.backend.cancel'),
          color: 'warning',
          icon: 'warning',
          type: 'warning',
        });
        if (!confirmed) return;
      }
      try {
        const { data } = await api.post(`/studio/games/${gameId}/backend-secret`);
        setShownSecret(data.secret);
        toast.add({ title: data.previousExpiresAt ? t('webhooks.backend.rotated') : t('webhooks.backend.created'), color: 'success' });
        setStatus((await api.get(`/studio/games/${gameId}/backend-secret`)).data);
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('webhooks.failed')), color: 'error' });
      }
    });

  return (
    <section className="max-w-xl space-y-3" data-testid="backend-secret">
      <h3 className="text-lg font-semibold">{t('webhooks.backend.title')}</h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('webhooks.backend.help')}</p>
      {status && !status.hasSecret ? <p className="text-sm">{t('webhooks.backend.none')}</p> : null}
      {status?.createdAt ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="backend-secret-made">
          {t('webhooks.backend.made', { time: formatDate(status.createdAt, locale, 'medium') })}
        </p>
      ) : null}
      {status?.previousExpiresAt ? (
        <p className="text-sm text-amber-900 dark:text-amber-200" data-testid="backend-secret-overlap">
          {t('webhooks.backend.overlap', { time: formatDate(status.previousExpiresAt, locale, 'medium') })}
        </p>
      ) : null}
      {shownSecret ? (
        <output className="block space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950">
          <span className="block text-sm font-medium">{t('webhooks.backend.newSecret')}</span>
          <code className="block break-all font-mono text-sm select-all" data-testid="backend-secret-value">
            {shownSecret}
          </code>
        </output>
      ) : null}
      <Button variant="secondary" onClick={make} disabled={pending !== null || status === null} data-testid="backend-secret-make">
        <KeyRound aria-hidden />
        {status?.hasSecret ? t('webhooks.backend.rotate') : t('webhooks.backend.make')}
      </Button>
    </section>
  );
}
