import { useTranslation } from '../i18n/translation.tsx';

/** Replaced by the page itself. */
export default function Page() {
  const { t } = useTranslation('studio');
  return (
    <section className="space-y-2">
      <h2 className="text-xl font-semibold tracking-tight">{t('game.nav.stats')}</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('placeholder')}</p>
    </section>
  );
}
