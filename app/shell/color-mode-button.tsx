import { Moon, Sun } from 'lucide-react';
import { useTranslation } from '../i18n/translation.tsx';
import { Button } from '../ui/button.tsx';
import { useColorMode } from './color-mode.ts';

/** Toggles between light and dark; the icon follows the `dark` class, so it is right before hydration. */
export function ColorModeButton() {
  const { t } = useTranslation('shell');
  const { resolved, setMode } = useColorMode();
  const label = resolved === 'dark' ? t('colorMode.toLight') : resolved === 'light' ? t('colorMode.toDark') : t('colorMode.toggle');
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      data-testid="color-mode-button"
      onClick={() => resolved && setMode(resolved === 'dark' ? 'light' : 'dark')}
    >
      <Moon className="dark:hidden" aria-hidden />
      <Sun className="hidden dark:block" aria-hidden />
    </Button>
  );
}
