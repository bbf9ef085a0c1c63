import { CircleAlert, LoaderCircle } from 'lucide-react';
import { type ComponentProps, type ReactNode, useId } from 'react';
import { useTranslation } from '../i18n/translation.tsx';
import { cn } from './cn.ts';
import { focusRing } from './focus.ts';

const inputClass = cn(
  'block h-11 w-full rounded-lg border border-zinc-300 bg-white px-3 text-base text-zinc-900 shadow-xs transition-colors sm:h-10 sm:text-sm',
  'placeholder:text-zinc-400 hover:border-zinc-400 disabled:cursor-not-allowed disabled:opacity-60',
  'aria-[invalid=true]:border-red-600 dark:aria-[invalid=true]:border-red-400',
  'dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100 dark:placeholder:text-zinc-500 dark:hover:border-zinc-600',
  focusRing,
);

/** A labelled input with an optional hint and the field's error, wired for screen readers. */
export function TextField({
  label,
  hint,
  error,
  className,
  ...input
}: Omit<ComponentProps<'input'>, 'id'> & { label: string; hint?: ReactNode; error?: string | null | undefined }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        className={inputClass}
        {...input}
      />
      {error ? (
        <p id={errorId} className="flex items-start gap-1.5 text-sm text-red-700 dark:text-red-400" data-testid="field-error">
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{error}</span>
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="text-sm text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A message about the whole form (a refused sign-in, a rate limit), announced when it appears. */
export function FormAlert({ message }: { message: string | null }) {
  return (
    <div role="alert" aria-live="assertive" className="empty:hidden">
      {message ? (
        <p
          // A refusal without a field to point at takes focus here (decision 121).
          tabIndex={-1}
          data-form-error
          className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 outline-none dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
          data-testid="form-alert"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{message}</span>
        </p>
      ) : null}
    </div>
  );
}

/** Covers a form while its action runs (spec section 4: a loading overlay while an action is pending). */
export function LoadingOverlay({ show }: { show: boolean }) {
  const { t } = useTranslation();
  if (!show) return null;
  return (
    <output
      className="absolute inset-0 z-10 flex items-center justify-center rounded-[inherit] bg-white/70 backdrop-blur-[1px] dark:bg-zinc-900/70"
      data-testid="loading-overlay"
    >
      <LoaderCircle className="size-6 animate-spin text-green-700 motion-reduce:animate-none dark:text-green-400" aria-hidden />
      <span className="sr-only">{t('pleaseWait')}</span>
    </output>
  );
}
