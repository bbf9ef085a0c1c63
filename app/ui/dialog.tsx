import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';
import { focusRing } from './focus.ts';

/**
 * A modal panel with a title, a description and a close button (Radix Dialog: focus trap, Escape,
 * the overlay, return of focus). The caller owns `open`; `trigger` is an optional opener.
 */
export function DialogPanel({
  open,
  onOpenChange,
  title,
  description,
  closeLabel,
  testId,
  trigger,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  closeLabel: string;
  testId: string;
  trigger?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <Dialog.Trigger asChild>{trigger}</Dialog.Trigger> : null}
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-zinc-950/50 backdrop-blur-[2px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in motion-reduce:animate-none" />
        <Dialog.Content
          data-testid={testId}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl sm:p-6',
            'dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100',
            'data-[state=closed]:animate-fade-out data-[state=open]:animate-dialog-in motion-reduce:animate-none',
          )}
        >
          <div className="mb-5 flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</Dialog.Description>
            </div>
            <Dialog.Close
              aria-label={closeLabel}
              className={cn(
                '-mt-1 -mr-1 shrink-0 cursor-pointer rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
                focusRing,
              )}
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
