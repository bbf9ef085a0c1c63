import { RadioGroup as RadioPrimitive } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn.ts';
import { focusRing } from './focus.ts';

/** A compact single choice (a row of pill buttons); arrow keys move between options. */
export function Segmented({ className, ...props }: ComponentProps<typeof RadioPrimitive.Root>) {
  return (
    <RadioPrimitive.Root
      orientation="horizontal"
      className={cn('grid auto-cols-fr grid-flow-col gap-1 rounded-xl bg-zinc-100 p-1 dark:bg-zinc-800', className)}
      {...props}
    />
  );
}

export function SegmentedItem({ className, children, icon, ...props }: ComponentProps<typeof RadioPrimitive.Item> & { icon?: ReactNode }) {
  return (
    <RadioPrimitive.Item
      className={cn(
        'flex min-h-9 cursor-pointer items-center justify-center gap-1.5 rounded-lg px-2 text-sm whitespace-nowrap text-zinc-600 transition-colors',
        'hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-50 dark:text-zinc-300 dark:hover:text-zinc-50',
        'data-[state=checked]:bg-white data-[state=checked]:font-medium data-[state=checked]:text-zinc-900 data-[state=checked]:shadow-sm',
        'dark:data-[state=checked]:bg-zinc-950 dark:data-[state=checked]:text-zinc-50 [&_svg]:size-4',
        focusRing,
        className,
      )}
      {...props}
    >
      {icon}
      {children}
    </RadioPrimitive.Item>
  );
}
