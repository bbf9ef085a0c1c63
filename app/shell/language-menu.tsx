import { isLocale, LOCALES } from '#common/locales.ts';
import { useTranslation } from '../i18n/translation.tsx';
import type { DeferredWidgetProps } from '../ui/deferred.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu.tsx';
import { useLanguageChoice } from './language-selector.tsx';

/** The header's language menu, loaded when wanted (language-selector.tsx): each language named in itself. */
export default function LanguageMenu({ open, onOpenChange, trigger }: DeferredWidgetProps) {
  const { t } = useTranslation('shell');
  const { locale, choose, pending } = useLanguageChoice();
  return (
    // Not modal: a modal menu hides the rest of the page from screen readers while its links stay focusable.
    <DropdownMenu open={open} onOpenChange={onOpenChange} modal={false}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
