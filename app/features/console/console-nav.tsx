import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { SectionNav } from '../../ui/section-nav.tsx';

const SECTIONS = ['reviews', 'games', 'articles', 'pages', 'orders', 'payouts', 'members', 'acquisition', 'reconciliation', 'audit'] as const;

/** The Console's pages (operators only). */
export function ConsoleNav() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  return (
    <SectionNav
      label={t('nav.label')}
      items={[
        { to: localePath(locale, '/console'), label: t('nav.overview'), end: true },
        ...SECTIONS.map((section) => ({ to: localePath(locale, `/console/${section}`), label: t(`nav.${section}`) })),
      ]}
    />
  );
}
