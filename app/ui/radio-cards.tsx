import { RadioGroup as RadioPrimitive } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn.ts';
import { focusRing } from './focus.ts';

type RadioCardsProps = ComponentProps<typeof RadioPrimitive.Root> & { /** Cards per row from the small breakpoint on. */ columns?: 2 | 3 };

/** A row of choice cards: one checked, arrow keys move between them. */
export function RadioCards({ className, columns = 3, ...props }: RadioCardsProps) {
  return <RadioPrimitive.Root className={cn('grid gap-2', columns === 2 ? 'sm:grid-cols-2' : 'sm:grid-cols-3', className)} {...props} />;
}

/**
 * A titled choice among cards (the settings page's shape): heading, hint and the cards, named by
 * the heading; `id` is also the cards' test id.
 */
export function RadioCardsSection({
  id,
  title,
  hint,
  sectionClassName = 'mt-10',
  className,
  ...props
}: RadioCardsProps & { id: string; title: string; hint: string; sectionClassName?: string }) {
  return (
    <section aria-labelledby={id} className={sectionClassName}>
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{hint}</p>
      <RadioCards aria-labelledby={id} className={cn('mt-4', className)} data-testid={id} {...props} />
    </section>
  );
}

export function RadioCard({
  className,
  icon,
  label,
  hint,
  ...props
}: ComponentProps<typeof RadioPrimitive.Item> & { icon?: ReactNode; label: string; hint?: string }) {
  return (
    <RadioPrimitive.Item
      className={cn(
        'group flex cursor-pointer items-center gap-3 rounded-xl border border-zinc-200 bg-white p-3 text-left transition-colors',
        'hover:border-zinc-300 hover:bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-zinc-700 dark:hover:bg-zinc-800/60',
        'data-[state=checked]:border-green-600 data-[state=checked]:bg-green-50 dark:data-[state=checked]:border-green-500 dark:data-[state=checked]:bg-green-950/40',
        'disabled:cursor-not-allowed disabled:opacity-50',
        focusRing,
        className,
      )}
      {...props}
    >
      {icon ? (
        <span className="text-zinc-500 group-data-[state=checked]:text-green-700 dark:text-zinc-400 dark:group-data-[state=checked]:text-green-400">
          {icon}
        </span>
      ) : null}
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-medium">{label}</span>
        {hint ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">{hint}</span> : null}
      </span>
      <span
        aria-hidden
        className="flex size-4 shrink-0 items-center justify-center rounded-full border border-zinc-400 group-data-[state=checked]:border-green-700 dark:border-zinc-500 dark:group-data-[state=checked]:border-green-400"
      >
        <RadioPrimitive.Indicator className="size-2 rounded-full bg-green-700 dark:bg-green-400" />
      </span>
    </RadioPrimitive.Item>
  );
}
