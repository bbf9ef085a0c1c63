import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isLocale, type Locale, LOCALES } from '#common/locales.ts';
import { Button } from '../ui/button.tsx';
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuTrigger } from '../ui/dropdown-menu.tsx';
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

/** Header language menu: each language named in itself. */
export function LanguageSelector() {
  const { t } = useTranslation('shell');
  const { locale, choose, pending } = useLanguageChoice();
  const [open, setOpen] = useMenuState();
  const current = LOCALES.find((l) => l.code === locale) ?? LOCALES[0];
  return (
    <DropdownMenu open={open} onOpenChange={setOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" className="px-2" aria-label={t('language.change', { language: current.name })} data-testid="language-selector">
          <Languages aria-hidden />
          <span className="text-sm">{current.code === 'zh-CN' ? '中文' : 'EN'}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>{t('language.label')}</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={locale} onValueChange={(value) => isLocale(value) && void choose(value)}>
          {LOCALES.map((l) => (
            <DropdownMenuRadioItem key={l.code} value={l.code} lang={l.language} disabled={pending !== null}>
              {l.name}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
