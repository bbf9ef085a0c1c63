import { CircleAlert, CircleHelp, Info, TriangleAlert } from 'lucide-react';
import { useTranslation } from '../i18n/translation.tsx';
import { AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogTitle } from '../ui/alert-dialog.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { confirmDialog, type ConfirmRequest, useConfirmRequest } from './confirm-store.ts';

const ICONS = { info: Info, warning: TriangleAlert, error: CircleAlert, question: CircleHelp } as const;

function confirmVariant(request: ConfirmRequest) {
  if (request.color === 'error') return 'danger' as const;
  if (request.color === 'warning' || request.type === 'warning') return 'warning' as const;
  return 'primary' as const;
}

/** The page's confirm dialog: the open question of `confirm()`, answered by its buttons. */
export function ConfirmDialog() {
  const { t } = useTranslation('shell');
  const request = useConfirmRequest();
  const warning = request?.type === 'warning' || request?.color === 'warning' || request?.color === 'error';
  const Icon = ICONS[request?.icon ?? (warning ? 'warning' : 'question')];
  return (
    <AlertDialog open={request !== null} onOpenChange={(open) => !open && confirmDialog.answer(false)}>
      {request ? (
        <AlertDialogContent data-testid="confirm-dialog">
          <div className="flex gap-4">
            <span
              className={cn(
                'flex size-10 shrink-0 items-center justify-center rounded-full',
                warning
                  ? 'bg-amber-100 text-amber-700 dark:bg-amber-950 dark:text-amber-400'
                  : 'bg-green-100 text-green-700 dark:bg-green-950 dark:text-green-400',
              )}
            >
              <Icon className="size-5" aria-hidden />
            </span>
            <div className="min-w-0 flex-1">
              <AlertDialogTitle className="text-base font-semibold">{request.title ?? t('confirm.title')}</AlertDialogTitle>
              <AlertDialogDescription className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{request.message}</AlertDialogDescription>
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogCancel asChild>
              <Button variant="secondary" onClick={() => confirmDialog.answer(false)}>
                {request.cancelButton ?? t('confirm.cancel')}
              </Button>
            </AlertDialogCancel>
            <AlertDialogAction asChild>
              <Button variant={confirmVariant(request)} onClick={() => confirmDialog.answer(true)} data-testid="confirm-accept">
                {request.confirmButton ?? t('confirm.confirm')}
              </Button>
            </AlertDialogAction>
          </div>
        </AlertDialogContent>
      ) : null}
    </AlertDialog>
  );
}
