import { MonitorDown } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Button } from '../../ui/button.tsx';
import { installPrompt } from './install-prompt.ts';

/** The header's add-to-desktop button: only while the browser offers installation (beforeinstallprompt). */
export function InstallButton() {
  const { t } = useTranslation('shell');
  const offered = useSyncExternalStore(
    (listener) => installPrompt.subscribe(listener),
    () => installPrompt.available(),
    () => false,
  );
  if (!offered) return null;
  return (
    <Button variant="ghost" size="sm" className="max-sm:size-9 max-sm:px-0" onClick={() => void installPrompt.install()} data-testid="install-button">
      <MonitorDown aria-hidden />
      <span className="sr-only sm:not-sr-only">{t('install.button')}</span>
    </Button>
  );
}
