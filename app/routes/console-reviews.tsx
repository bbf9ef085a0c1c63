import { Check, ExternalLink, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import { type Build, type QueuedBuild, REJECT_REASON_MAX } from '#common/api/studio-builds.schema.ts';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { useTranslation } from '../i18n/translation.tsx';
import { api, ApiError } from '../lib/api-client.ts';
import { Button, buttonVariants } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import type { Route } from './+types/console-reviews';

/** The review queue (decision 097): builds sent for review, oldest first; the Console's frame has checked the caller is an operator. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { locale } = loaderT(request);
  const { userInfo } = await context.get(pageSessionContext)();
  return { builds: await context.get(appContext).services.builds.queue({ userId: userInfo!.uid, tokenId: 0 }, locale) };
}

function Review({ build, onDone }: { build: QueuedBuild; onDone: (text: string, error: boolean) => void }) {
  const { t } = useTranslation('console');
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  async function decide(action: 'approve' | 'reject', event?: FormEvent) {
    event?.preventDefault();
    setBusy(true);
    try {
      await api.request<Build>('POST', `/console/builds/${build.id}/${action}`, action === 'reject' ? { body: { reason } } : {});
      onDone(t(action === 'approve' ? 'reviews.approved' : 'reviews.rejected', { title: build.title, version: build.version }), false);
    } catch (error) {
      onDone(error instanceof ApiError ? error.message : String(error), true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" data-testid={`review-${build.slug}`}>
      <div className="space-y-1">
        <h3 className="font-medium">{t('reviews.build', { title: build.title, version: build.version })}</h3>
        {build.studioName && <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.studio', { studio: build.studioName })}</p>}
        {build.submittedAt && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.submittedAt', { date: build.submittedAt.slice(0, 16).replace('T', ' ') })}</p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <a href={build.previewUrl} target="_blank" rel="noopener" className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
          <ExternalLink aria-hidden />
          {t('reviews.play')}
        </a>
        <Button size="sm" disabled={busy} onClick={() => decide('approve')}>
          <Check aria-hidden />
          {t('reviews.approve')}
        </Button>
      </div>
      <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={(event) => decide('reject', event)}>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={reasonId} className="text-sm font-medium">
            {t('reviews.reason')}
          </label>
          <textarea
            id={reasonId}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            required
            maxLength={REJECT_REASON_MAX}
            rows={2}
            className="w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
        </div>
        <Button type="submit" variant="danger" size="sm" disabled={busy}>
          <X aria-hidden />
          {t('reviews.reject')}
        </Button>
      </form>
    </li>
  );
}

export default function ConsoleReviews({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('console');
  const { revalidate } = useRevalidator();
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  return (
    <section className="space-y-4" aria-labelledby="reviews-heading">
      <div className="space-y-1">
        <h2 id="reviews-heading" className="text-xl font-semibold tracking-tight">
          {t('reviews.heading')}
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.intro')}</p>
      </div>
      {message && (
        <p
          role={message.error ? 'alert' : 'status'}
          className={cn('text-sm', message.error ? 'text-red-700 dark:text-red-400' : 'text-green-700 dark:text-green-400')}
        >
          {message.text}
        </p>
      )}
      {loaderData.builds.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.empty')}</p>
      ) : (
        <ul className="space-y-3">
          {loaderData.builds.map((build) => (
            <Review
              key={build.id}
              build={build}
              onDone={(text, error) => {
                setMessage({ text, error });
                if (!error) void revalidate();
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
