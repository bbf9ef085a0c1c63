import { WifiOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '../i18n/translation.tsx';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/**
 * A line above the page while the device has no network: a page the service worker answered
 * from its copy looks live otherwise, and its links and sign-in would fail without a word.
 */
export function OfflineNotice() {
  const { t } = useTranslation('shell');
  const offline = useSyncExternalStore(
    subscribe,
    () => !navigator.onLine,
    () => false,
  );
  if (!offline) return null;
  return (
    <output
      data-testid="offline-notice"
      className="mb-4 flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
    >
      <WifiOff className="size-4 shrink-0" aria-hidden />
      {t('offline.notice')}
    </output>
  );
}
