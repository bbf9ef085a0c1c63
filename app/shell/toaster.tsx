import { CircleAlert, CircleCheck, Info, LoaderCircle, TriangleAlert, X } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { useTranslation } from '../i18n/translation.tsx';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import { type Toast, toast, useToasts } from './toast-store.ts';

const ICONS = { success: CircleCheck, error: CircleAlert, warning: TriangleAlert, info: Info, neutral: Info } as const;

const ACCENT: Record<NonNullable<Toast['color']>, string> = {
  neutral: 'text-zinc-500 dark:text-zinc-400',
  success: 'text-green-700 dark:text-green-400',
  error: 'text-red-700 dark:text-red-400',
  warning: 'text-amber-600 dark:text-amber-400',
  info: 'text-sky-700 dark:text-sky-400',
};

/** The toast queue on screen: top centre, newest last, each closing itself after its duration. */
export function Toaster() {
  const { t } = useTranslation('shell');
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider swipeDirection="up" label={t('toast.region')}>
      {toasts.map((item) => {
        const color = item.color ?? 'neutral';
        const Icon = item.loading ? LoaderCircle : ICONS[color];
        return (
          <ToastPrimitive.Root
            key={item.id}
            open={item.open}
            duration={item.duration > 0 ? item.duration : Number.POSITIVE_INFINITY}
            onOpenChange={(open) => !open && toast.close(item.id)}
            type={color === 'error' ? 'foreground' : 'background'}
            data-testid="toast"
            data-color={color}
            className={cn(
              'pointer-events-auto flex w-full items-start gap-3 rounded-xl border border-zinc-200 bg-white p-3 pr-2 text-zinc-900 shadow-lg',
              'dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100',
              'data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out',
              'data-[swipe=move]:translate-y-(--radix-toast-swipe-move-y) data-[swipe=cancel]:translate-y-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-out',
            )}
          >
            <Icon className={cn('mt-0.5 size-5 shrink-0', ACCENT[color], item.loading && 'animate-spin')} aria-hidden />
            <div className="min-w-0 flex-1">
              <ToastPrimitive.Title className="text-sm font-medium">{item.title}</ToastPrimitive.Title>
              {item.description ? (
                <ToastPrimitive.Description className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">{item.description}</ToastPrimitive.Description>
              ) : null}
            </div>
            <ToastPrimitive.Close
              aria-label={t('toast.close')}
              className={cn(
                'shrink-0 cursor-pointer rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
                focusRing,
              )}
            >
              <X className="size-4" aria-hidden />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        );
      })}
      <ToastPrimitive.Viewport
        data-testid="toast-viewport"
        className="pointer-events-none fixed top-0 left-1/2 z-[100] flex w-full max-w-sm -translate-x-1/2 flex-col gap-2 p-4 outline-none"
      />
    </ToastPrimitive.Provider>
  );
}
