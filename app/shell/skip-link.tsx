import { useTranslation } from '../i18n/translation.tsx';

/** The first stop for keyboard users: jumps past the header to the page's content. */
export function SkipLink() {
  const { t } = useTranslation('shell');
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded-lg bg-green-700 px-4 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:outline-2 focus:outline-offset-2 focus:outline-green-600"
    >
      {t('skipToContent')}
    </a>
  );
}
