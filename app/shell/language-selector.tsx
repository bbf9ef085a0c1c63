import { Languages } from 'lucide-react';
import { useTranslation } from '../i18n/translation.tsx';
import { type Locale, LOCALES } from '#common/locales.ts';
import { Button } from '../ui/button.tsx';
import { deferred } from '../ui/deferred.tsx';
import { useLocale, useSwitchLocale } from '../i18n/use-locale.ts';
import { toast } from './toast-store.ts';
import { useMenuState } from './use-menu-state.ts';

/** Switches locale and tells the visitor when the other language could not be loaded. */
export function useLanguageChoice() {
  const locale = useLocale();
  const { t } = useTranslation('shell');
  const { switchLocale, pending } = useSwitchLocale();
  const choose = async (next: Locale) => {
    if (!(await switchLocale(next))) toast.add({ title: t('language.failed'), color: 'error' });
  };
  return { locale, choose, pending };
}

const LanguageMenu = deferred(async () => (await import('./language-menu.tsx')).default);

/** Header language menu; its code loads when the visitor reaches for it (decision 066). */
export function LanguageSelector() {
  const { t } = useTranslation('shell');
  const locale = useLocale();
  const [open, setOpen] = useMenuState();
  const current = LOCALES.find((l) => l.code === locale) ?? LOCALES[0];
  const short = current.code === 'zh-CN' ? '中文' : 'EN';
  return (
    <LanguageMenu
      open={open}
      onOpenChange={setOpen}
      trigger={
        // The name starts with the visible text, so speech control finds the button by what it shows (WCAG 2.5.3).
        <Button variant="ghost" size="sm-narrow" aria-label={t('language.change', { short, language: current.name })} data-testid="language-selector">
          <Languages aria-hidden />
          <span className="text-sm">{short}</span>
        </Button>
      }
    />
  );
}
