import { MonitorDown, Smartphone } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Button } from '../../ui/button.tsx';
import { installPrompt } from './install-prompt.ts';

/** Whether the browser offers installation now (beforeinstallprompt kept, not used yet). */
function useInstallOffered(): boolean {
  return useSyncExternalStore(
    (listener) => installPrompt.subscribe(listener),
    () => installPrompt.available(),
    () => false,
  );
}

/** The header's add-to-desktop button: only while the browser offers installation (beforeinstallprompt). */
export function InstallButton() {
  const { t } = useTranslation('shell');
  if (!useInstallOffered()) return null;
  return (
    <Button variant="ghost" size="sm" className="max-sm:size-9 max-sm:px-0" onClick={() => void installPrompt.install()} data-testid="install-button">
      <MonitorDown aria-hidden />
      <span className="sr-only sm:not-sr-only">{t('install.button')}</span>
    </Button>
  );
}

/**
 * The phone's install offer, in the user drawer: the browser's own prompt is held back for the
 * header's button, which phones do not show, so without this a phone would never be offered it.
 */
export function InstallDrawerOffer({ onInstall }: { onInstall?: () => void }) {
  const { t } = useTranslation('shell');
  if (!useInstallOffered()) return null;
  return (
    <div className="mt-4 flex items-center gap-3 rounded-xl bg-green-50 p-3 dark:bg-green-950/40" data-testid="install-offer">
      <Smartphone className="size-5 shrink-0 text-green-700 dark:text-green-400" aria-hidden />
      <p className="min-w-0 flex-1 text-sm text-zinc-700 dark:text-zinc-300">{t('install.hint')}</p>
      <Button
        size="sm"
        onClick={() => {
          onInstall?.();
          void installPrompt.install();
        }}
        data-testid="install-button"
      >
        {t('install.button')}
      </Button>
    </div>
  );
}
