import { useTranslation } from '../../i18n/translation.tsx';
import { type Locale, localePath } from '#common/locales.ts';
import { AppRow } from './app-row.tsx';
import { useMemberLibrary } from './use-member-library.ts';

/** The home page's "Recently played" row: the member's last games, shown once they have some. */
export function RecentlyPlayedRow({ locale }: { locale: Locale }) {
  const { t } = useTranslation('catalogue');
  const played = useMemberLibrary('played', locale);
  if (played.status !== 'ready' || played.items.length === 0) return null;
  return <AppRow id="recently-played" title={t('home.recentlyPlayed')} apps={played.items} locale={locale} seeAll={localePath(locale, '/user')} />;
}
