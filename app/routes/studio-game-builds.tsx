import { Copy, ExternalLink, Rocket, RotateCcw, Send } from 'lucide-react';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Build } from '#common/api/studio-builds.schema.ts';
import { byteSizeText } from '#common/byte-sizes.ts';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { BuildUpload } from '../features/studio/build-upload.tsx';
import { previewUrlIn } from '../features/studio/preview-url.ts';
import { useTranslation } from '../i18n/translation.tsx';
import { useLocale } from '../i18n/use-locale.ts';
import { api, ApiError } from '../lib/api-client.ts';
import { invalidParameter } from '../lib/route-errors.ts';
import { confirm } from '../shell/confirm-store.ts';
import { Button, buttonVariants } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import type { Route } from './+types/studio-game-builds';

/** A game's builds (decision 097): upload, preview, submit for review, roll back. The parent route has checked the game is the caller's. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!/^\d{1,9}$/.test(params.gameId)) invalidParameter(request);
  const { userInfo } = await context.get(pageSessionContext)();
  const { builds, liveBuildId } = await context.get(appContext).services.builds.list({ userId: userInfo!.uid, tokenId: 0 }, Number(params.gameId));
  return { appId: Number(params.gameId), builds, liveBuildId };
}

const STATUS_CLASS: Record<Build['status'], string> = {
  uploaded: 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200',
  submitted: 'bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200',
  approved: 'bg-green-100 text-green-900 dark:bg-green-900/40 dark:text-green-200',
  rejected: 'bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200',
};

export default function StudioGameBuilds({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const { revalidate } = useRevalidator();
  const { appId, builds } = loaderData;
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const live = builds.find((build) => build.live);

  async function act(call: () => Promise<Build>, success: (build: Build) => string) {
    setBusy(true);
    setMessage(null);
    try {
      const build = await call();
      setMessage({ text: success(build), error: false });
      await revalidate();
    } catch (error) {
      setMessage({ text: error instanceof ApiError ? error.message : String(error), error: true });
    } finally {
      setBusy(false);
    }
  }

  /** Any approved build can be the live one again, earlier or later than the live one (decision 122); players get it at once, so it is confirmed first. */
  async function makeLive(build: Build) {
    const confirmed = await confirm({
      title: t('builds.list.makeLiveTitle', { version: build.version }),
      message: live
        ? t('builds.list.makeLiveBody', { version: build.version, live: live.version })
        : t('builds.list.makeLiveBodyFirst', { version: build.version }),
      confirmButton: t('builds.list.makeLiveConfirm'),
      cancelButton: t('builds.list.cancel'),
      color: 'warning',
      type: 'warning',
    });
    if (!confirmed) return;
    await act(
      () => api.request<Build>('POST', `/studio/games/${appId}/builds/${build.id}/live`).then((envelope) => envelope.data),
      (next) => t('builds.list.rolledBack', { version: next.version }),
    );
  }

  async function copy(url: string) {
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setMessage({ text: t('builds.list.copied'), error: false });
  }

  return (
    <section className="space-y-4" aria-labelledby="builds-heading">
      <div className="space-y-1">
        <h2 id="builds-heading" className="text-xl font-semibold tracking-tight">
          {t('builds.heading')}
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('builds.intro')}</p>
      </div>
      <BuildUpload appId={appId} onUploaded={() => void revalidate()} />
      {message && (
        <p
          role={message.error ? 'alert' : 'status'}
          className={cn('text-sm', message.error ? 'text-red-700 dark:text-red-400' : 'text-green-700 dark:text-green-400')}
        >
          {message.text}
        </p>
      )}
      {builds.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('builds.list.empty')}</p>
      ) : (
        <ul className="space-y-3" data-testid="build-list">
          {builds.map((build) => (
            <li key={build.id} className="space-y-2 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" data-testid={`build-${build.version}`}>
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-medium">{t('builds.list.version', { version: build.version })}</h3>
                <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium', STATUS_CLASS[build.status])} data-testid="build-status">
                  {t(`builds.status.${build.status}`)}
                </span>
                {build.live && (
                  <span className="rounded-full bg-green-700 px-2 py-0.5 text-xs font-medium text-white dark:bg-green-500 dark:text-zinc-950">
                    {t('builds.list.live')}
                  </span>
                )}
              </div>
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                {t('builds.list.files', { count: build.fileCount, size: byteSizeText(build.totalBytes, locale) })}
              </p>
              {build.reason && <p className="text-sm text-red-700 dark:text-red-400">{t('builds.list.reason', { reason: build.reason })}</p>}
              <div className="flex flex-wrap gap-2">
                <a
                  href={previewUrlIn(locale, build.previewUrl)}
                  target="_blank"
                  rel="noopener"
                  className={buttonVariants({ variant: 'secondary', size: 'sm' })}
                  data-testid="preview-link"
                >
                  <ExternalLink aria-hidden />
                  {t('builds.list.preview')}
                </a>
                <Button variant="ghost" size="sm" onClick={() => copy(previewUrlIn(locale, build.previewUrl))}>
                  <Copy aria-hidden />
                  {t('builds.list.copy')}
                </Button>
                {build.status === 'approved' && !build.live && (
                  <Button variant="secondary" size="sm" disabled={busy} onClick={() => void makeLive(build)} data-testid="make-live">
                    {live && build.version < live.version ? <RotateCcw aria-hidden /> : <Rocket aria-hidden />}
                    {t(live && build.version < live.version ? 'builds.list.rollBackTo' : 'builds.list.rollForwardTo', { version: build.version })}
                  </Button>
                )}
                {(build.status === 'uploaded' || build.status === 'rejected') && (
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() =>
                      act(
                        () => api.request<Build>('POST', `/studio/games/${appId}/builds/${build.id}/submit`).then((envelope) => envelope.data),
                        (next) => t('builds.list.submitted', { version: next.version }),
                      )
                    }
                  >
                    <Send aria-hidden />
                    {t('builds.list.submit')}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
