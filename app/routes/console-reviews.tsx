import { Check, ExternalLink, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { QueuedGameChange } from '#common/api/game-changes.schema.ts';
import { type QueuedBuild, REJECT_REASON_MAX, RejectBodySchema } from '#common/api/studio-builds.schema.ts';
import { appContext } from '../context.ts';
import { schemaError, useFormErrors } from '../ui/form-errors.ts';
import { FormAlert } from '../ui/form-field.tsx';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { ChangeSummaryList } from '../features/studio/game-review-status.tsx';
import { formatDateTime } from '../features/console/console-format.ts';
import { previewUrlIn } from '../features/studio/preview-url.ts';
import { TextAreaField } from '../features/studio/studio-fields.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { useTranslation } from '../i18n/translation.tsx';
import { useLocale } from '../i18n/use-locale.ts';
import { api, ApiError } from '../lib/api-client.ts';
import { confirm } from '../shell/confirm-store.ts';
import { Button, buttonVariants } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import type { Route } from './+types/console-reviews';

/**
 * The review queues: builds sent for review (decision 097) and changes of live games (decision 112),
 * oldest first; the Console's frame has checked the caller is an operator.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { locale } = loaderT(request);
  const { userInfo } = await context.get(pageSessionContext)();
  const { builds, gameChanges } = context.get(appContext).services;
  const caller = { userId: userInfo!.uid, tokenId: 0 };
  const [queued, changes] = await Promise.all([builds.queue(caller, locale), gameChanges.queue(caller, locale)]);
  return { builds: queued, changes };
}

/** A value of a changed field as the operator reads it. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1);
}

/**
 * Approves one item of the review queue (after a confirmation) or rejects it with a reason; a
 * refused rejection is thrown back to its form, any other outcome goes to `onDone`.
 */
function useReviewDecision(options: {
  approval: { title: string; message: string; confirmButton: string };
  /** The item's path in the Console API, without the action. */
  path: string;
  done: (action: 'approve' | 'reject') => string;
  onDone: (text: string, error: boolean) => void;
}) {
  const { t } = useTranslation('console');
  const [busy, setBusy] = useState(false);
  async function decide(action: 'approve' | 'reject', reason = '') {
    if (action === 'approve' && !(await confirm({ ...options.approval, cancelButton: t('reviews.cancel'), type: 'warning', color: 'warning' }))) return;
    setBusy(true);
    try {
      await api.request('POST', `${options.path}/${action}`, action === 'reject' ? { body: { reason } } : {});
      options.onDone(options.done(action), false);
    } catch (error) {
      if (action === 'reject') throw error;
      options.onDone(error instanceof ApiError ? error.message : String(error), true);
    } finally {
      setBusy(false);
    }
  }
  return { busy, decide };
}

/** One live game's change: what it changes, the live and proposed values, approve or reject with a reason. */
function ChangeReview({ change, onDone }: { change: QueuedGameChange; onDone: (text: string, error: boolean) => void }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const { t: studioT } = useTranslation('studio');
  // Approving changes what players get at once, like a refund: it is confirmed first.
  const { busy, decide } = useReviewDecision({
    approval: {
      title: t('reviews.changes.confirmTitle', { title: change.title }),
      message: t('reviews.changes.confirmBody'),
      confirmButton: t('reviews.changes.approve'),
    },
    path: `/console/game-changes/${change.id}`,
    done: (action) => t(action === 'approve' ? 'reviews.changes.approved' : 'reviews.changes.rejected', { title: change.title }),
    onDone,
  });
  return (
    <li className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" data-testid={`change-${change.slug}`}>
      <div className="space-y-1">
        <h3 className="font-medium">{t('reviews.changes.game', { title: change.title })}</h3>
        {change.studioName && <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.changes.studio', { studio: change.studioName })}</p>}
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.changes.submittedAt', { date: formatDateTime(change.submittedAt, locale) })}</p>
      </div>
      <ChangeSummaryList changes={change.changes} namespace="console" />
      <dl className="space-y-2 text-sm">
        {Object.keys(change.changes.after).map((field) => (
          <div key={field} className="space-y-1">
            <dt className="font-medium">{studioT(`changes.field.${field}`)}</dt>
            <dd className="grid gap-2 sm:grid-cols-2">
              <div>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('reviews.changes.before')}</p>
                <pre className="max-h-40 overflow-auto rounded bg-zinc-100 p-2 text-xs whitespace-pre-wrap dark:bg-zinc-900">
                  {shown(change.changes.before[field])}
                </pre>
              </div>
              <div>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('reviews.changes.after')}</p>
                <pre className="max-h-40 overflow-auto rounded bg-zinc-100 p-2 text-xs whitespace-pre-wrap dark:bg-zinc-900">
                  {shown(change.changes.after[field])}
                </pre>
              </div>
            </dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={busy} onClick={() => decide('approve')}>
          <Check aria-hidden />
          {t('reviews.changes.approve')}
        </Button>
      </div>
      <RejectForm
        label={t('reviews.changes.reason')}
        submitLabel={t('reviews.changes.reject')}
        disabled={busy}
        onReject={(reason) => decide('reject', reason)}
      />
    </li>
  );
}

function Review({ build, onDone }: { build: QueuedBuild; onDone: (text: string, error: boolean) => void }) {
  const { t } = useTranslation('console');
  const locale = useLocale();
  // Approving publishes the build to every player at once: it is confirmed first.
  const { busy, decide } = useReviewDecision({
    approval: {
      title: t('reviews.confirmTitle', { title: build.title, version: build.version }),
      message: t('reviews.confirmBody', { title: build.title, version: build.version }),
      confirmButton: t('reviews.approve'),
    },
    path: `/console/builds/${build.id}`,
    done: (action) => t(action === 'approve' ? 'reviews.approved' : 'reviews.rejected', { title: build.title, version: build.version }),
    onDone,
  });
  return (
    <li className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" data-testid={`review-${build.slug}`}>
      <div className="space-y-1">
        <h3 className="font-medium">{t('reviews.build', { title: build.title, version: build.version })}</h3>
        {build.studioName && <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.studio', { studio: build.studioName })}</p>}
        {build.submittedAt && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.submittedAt', { date: formatDateTime(build.submittedAt, locale) })}</p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <a href={previewUrlIn(locale, build.previewUrl)} target="_blank" rel="noopener" className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
          <ExternalLink aria-hidden />
          {t('reviews.play')}
        </a>
        <Button size="sm" disabled={busy} onClick={() => decide('approve')}>
          <Check aria-hidden />
          {t('reviews.approve')}
        </Button>
      </div>
      <RejectForm label={t('reviews.reason')} submitLabel={t('reviews.reject')} disabled={busy} onReject={(reason) => decide('reject', reason)} />
    </li>
  );
}

/**
 * The reason and the button of a rejection. An empty reason is refused here and the server's
 * refusal shows under the field; either way focus goes to the field (decision 121).
 */
function RejectForm({
  label,
  submitLabel,
  disabled,
  onReject,
}: {
  label: string;
  submitLabel: string;
  disabled: boolean;
  onReject: (reason: string) => Promise<void>;
}) {
  const { t } = useTranslation('console');
  const [reason, setReason] = useState('');
  const { errors, alert, check, fail, formRef } = useFormErrors();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = schemaError(RejectBodySchema.shape.reason, reason, t);
    if (!check(problem ? { reason: problem } : {})) return;
    try {
      await onReject(reason);
    } catch (failure) {
      fail(failure, ['reason']);
    }
  }

  return (
    <form ref={formRef} noValidate className="space-y-2" onSubmit={(event) => void submit(event)}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <TextAreaField
            label={label}
            name="reason"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            maxLength={REJECT_REASON_MAX}
            rows={2}
            error={errors.reason}
          />
        </div>
        <Button type="submit" variant="danger" size="sm" disabled={disabled} className="sm:mt-7">
          <X aria-hidden />
          {submitLabel}
        </Button>
      </div>
      <FormAlert message={alert} />
    </form>
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
      <div className="space-y-1 pt-4">
        <h2 id="changes-heading" className="text-xl font-semibold tracking-tight">
          {t('reviews.changes.heading')}
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.changes.intro')}</p>
      </div>
      {loaderData.changes.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('reviews.changes.empty')}</p>
      ) : (
        <ul className="space-y-3" aria-labelledby="changes-heading">
          {loaderData.changes.map((change) => (
            <ChangeReview
              key={change.id}
              change={change}
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
