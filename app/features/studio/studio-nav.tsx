import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { SectionNav } from '../../ui/section-nav.tsx';

/** The Studio's own pages: the developer's games, the studio profile, the API keys and the earnings. */
export function StudioNav() {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  return (
    <SectionNav
      label={t('nav.label')}
      items={[
        { to: localePath(locale, '/studio'), label: t('nav.games'), end: true },
        { to: localePath(locale, '/studio/profile'), label: t('nav.profile') },
        { to: localePath(locale, '/studio/keys'), label: t('nav.keys') },
        { to: localePath(locale, '/studio/earnings'), label: t('nav.earnings') },
      ]}
    />
  );
}

/** The pages of one game in the Studio. */
export function StudioGameNav({ gameId }: { gameId: number }) {
  const { t } = useTranslation('studio');
  const locale = useLocale();
  const base = localePath(locale, `/studio/games/${gameId}`);
  return (
    <SectionNav
      label={t('game.nav.label')}
      items={[
        { to: base, label: t('game.nav.details'), end: true },
        { to: `${base}/builds`, label: t('game.nav.builds') },
        { to: `${base}/stats`, label: t('game.nav.stats') },
        { to: `${base}/webhooks`, label: t('game.nav.webhooks') },
      ]}
    />
  );
}
