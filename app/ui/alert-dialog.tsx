import { AlertDialog as DialogPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn.ts';

export const AlertDialog = DialogPrimitive.Root;
export const AlertDialogTitle = DialogPrimitive.Title;
export const AlertDialogDescription = DialogPrimitive.Description;
export const AlertDialogAction = DialogPrimitive.Action;
export const AlertDialogCancel = DialogPrimitive.Cancel;

/** A centred modal that must be answered; focus stays inside until it closes. */
export function AlertDialogContent({ className, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-zinc-950/50 backdrop-blur-[2px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in" />
      <DialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-zinc-200 bg-white p-6 text-zinc-900 shadow-xl',
          'dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100',
          'data-[state=closed]:animate-fade-out data-[state=open]:animate-dialog-in',
          className,
        )}
        {...props}
      />
    </DialogPrimitive.Portal>
  );
}
