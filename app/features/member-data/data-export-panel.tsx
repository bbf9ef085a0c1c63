import { Download, FileArchive } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { DataExport } from '#common/api/member-data.schema.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format-date.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button, buttonVariants } from '../../ui/button.tsx';
import { messageOf } from '../../ui/form-errors.ts';
import { usePendingAction } from '../../ui/use-pending-action.ts';

/** How often the page asks again while an archive is being prepared (it takes seconds). */
const POLL_MS = 2000;

/** A size as people read it: "18 KB", "2.4 MB". */
function sizeLabel(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
}

/**
 * /user/profile/data, "Download my data" (decision 144): ask for an archive of everything held
 * about the account; it is prepared in the background and offered for 7 days.
 */
export function DataExportPanel() {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const [latest, setLatest] = useState<DataExport | null | undefined>(undefined);
  const { pending, run } = usePendingAction();

  const preparing = latest?.status === 'pending';
  useEffect(() => {
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      api.get('/user/data-exports/').then(
        ({ data }) => {
          if (!active) return;
          const [newest] = data.exports;
          setLatest(newest ?? null);
          if (newest?.status === 'pending') timer = setTimeout(read, POLL_MS);
        },
        (failure: unknown) => active && toast.add({ title: messageOf(failure, t('data.failedToLoad')), color: 'error' }),
      );
    void read();
    return () => {
      active = false;
      clearTimeout(timer);
    };
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- `preparing` is the trigger: a new request starts the polling
  }, [t, preparing]);

  const request = () =>
    run('request', async () => {
      try {
        const { data } = await api.post('/user/data-exports/');
        setLatest(data.export);
      } catch (failure) {
        toast.add({ title: messageOf(failure, t('data.failedToRequest')), color: 'error' });
      }
    });

  return (
    <div className="space-y-4" data-testid="data-export">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('data.intro')}</p>
      <div className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" aria-live="polite" data-status={latest?.status ?? 'none'}>
        {latest === undefined ? (
          <p className="text-sm text-zinc-500">{t('data.loading')}</p>
        ) : latest === null ? (
          <p className="text-sm">{t('data.none')}</p>
        ) : latest.status === 'pending' ? (
          <p className="text-sm">{t('data.preparing')}</p>
        ) : latest.status === 'ready' && latest.downloadUrl ? (
          <div className="flex flex-wrap items-center gap-3">
            <FileArchive className="size-6 text-zinc-500" aria-hidden />
            <div className="min-w-0 flex-1 text-sm">
              <div className="font-medium">{t('data.ready')}</div>
              <div className="text-zinc-600 dark:text-zinc-400">
                {t('data.offeredUntil', { date: formatDate(latest.expiresAt!, locale), size: sizeLabel(latest.sizeBytes ?? 0, locale) })}
              </div>
            </div>
            <a href={latest.downloadUrl} download className={buttonVariants({ size: 'sm' })} data-testid="data-export-download">
              <Download className="size-4" aria-hidden />
              {t('data.download')}
            </a>
          </div>
        ) : (
          <p className="text-sm">{latest.status === 'failed' ? t('data.failed') : t('data.expired')}</p>
        )}
      </div>
      {latest !== undefined && !preparing ? (
        <Button onClick={request} disabled={pending !== null} data-testid="data-export-request" variant={latest?.status === 'ready' ? 'secondary' : 'primary'}>
          {t('data.request')}
        </Button>
      ) : null}
      <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('data.note')}</p>
    </div>
  );
}
