import { Suspense, useState } from 'react';
import { onDemand } from '../ui/deferred.tsx';
import { useConfirmRequest } from './confirm-store.ts';
import { useToasts } from './toast-store.ts';

const { Component: Toaster } = onDemand(async () => (await import('./toaster.tsx')).Toaster);
const { Component: ConfirmDialog } = onDemand(async () => (await import('./confirm-dialog.tsx')).ConfirmDialog);

/** Mounts `children` from the first time `needed` is true on, so closing animations still run. */
function useOnceNeeded(needed: boolean): boolean {
  const [mounted, setMounted] = useState(false);
  if (needed && !mounted) setMounted(true);
  return mounted || needed;
}

/**
 * The toasts' code loads with the first toast, not with the page nor at an idle moment of it
 * (decision 066): evaluating it costs a slow phone more main thread than a toast is worth waiting for.
 */
export function ToasterOnDemand() {
  const mounted = useOnceNeeded(useToasts().length > 0);
  return mounted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/** The confirm dialog's code loads with the first question, not with the page (decision 066). */
export function ConfirmDialogOnDemand() {
  const mounted = useOnceNeeded(useConfirmRequest() !== null);
  return mounted ? (
    <Suspense fallback={null}>
      <ConfirmDialog />
    </Suspense>
  ) : null;
}
