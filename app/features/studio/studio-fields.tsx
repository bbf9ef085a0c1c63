import { CircleAlert } from 'lucide-react';
import { type ComponentProps, type ReactNode, useId } from 'react';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';

const controlClass = cn(
  'block w-full rounded-lg border border-zinc-300 bg-white px-3 text-base text-zinc-900 shadow-xs sm:text-sm',
  'aria-[invalid=true]:border-red-600 dark:aria-[invalid=true]:border-red-400',
  'dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100',
  focusRing,
);

/** The label, hint and error around one control, wired for screen readers (as TextField does for inputs). */
function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      {children({ id, describedBy })}
      {error ? (
        <p id={`${id}-error`} className="flex items-start gap-1.5 text-sm text-red-700 dark:text-red-400" data-testid="field-error">
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{error}</span>
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled multi-line text. */
export function TextAreaField({
  label,
  hint,
  error,
  ...area
}: Omit<ComponentProps<'textarea'>, 'id'> & { label: string; hint?: ReactNode; error?: string | undefined }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy }) => (
        <textarea id={id} rows={4} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={cn(controlClass, 'py-2')} {...area} />
      )}
    </Field>
  );
}

/** A labelled choice among a few options. */
export function SelectField({
  label,
  error,
  options,
  ...select
}: Omit<ComponentProps<'select'>, 'id'> & { label: string; error?: string | undefined; options: Array<{ value: string; label: string }> }) {
  return (
    <Field label={label} error={error}>
      {({ id, describedBy }) => (
        <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={cn(controlClass, 'h-11 sm:h-10')} {...select}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A titled part of a long form. */
export function FormSection({ title, hint, children, testId }: { title: string; hint?: string; children: ReactNode; testId?: string }) {
  return (
    <fieldset className="space-y-4 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" data-testid={testId}>
      <legend className="px-1 text-base font-semibold">{title}</legend>
      {hint ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{hint}</p> : null}
      {children}
    </fieldset>
  );
}
