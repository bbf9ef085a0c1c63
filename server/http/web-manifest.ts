import { translator } from '../i18n.ts';
import { THEME_COLOR } from '#common/constants.ts';
import { type Locale, localePath } from '#common/locales.ts';

/** The screenshots shipped in public/screenshots/ (captures of the portal, one pair per locale). */
const SCREENSHOTS = [
  { name: 'wide', sizes: '1280x800', form_factor: 'wide', label: 'manifest.screenshotWide' },
  { name: 'narrow', sizes: '390x844', form_factor: 'narrow', label: 'manifest.screenshotNarrow' },
] as const;

/**
 * The installable-app manifest in one locale. The id is the same in every locale (one app,
 * whichever language installed it); start URL and scope follow the locale's prefix.
 */
export function webManifest(locale: Locale, productName: string) {
  const t = translator(locale);
  const shortcut = (name: string, path: string) => ({
    name,
    short_name: name,
    url: localePath(locale, path),
    icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
  });
  return {
    id: '/',
    name: productName,
    short_name: productName,
    description: t('common:productTagline'),
    lang: locale,
    dir: 'ltr',
    start_url: localePath(locale, '/pwa'),
    scope: localePath(locale, '/'),
    display: 'standalone',
    background_color: THEME_COLOR.light,
    // The installed app's title bar: light like the default theme (a dark one stays dark in light mode).
    theme_color: THEME_COLOR.light,
    categories: ['games', 'entertainment'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
    screenshots: SCREENSHOTS.map((s) => ({
      src: `/screenshots/${locale}-${s.name}.jpg`,
      sizes: s.sizes,
      type: 'image/jpeg',
      form_factor: s.form_factor,
      label: t(`common:${s.label}`),
    })),
    shortcuts: [
      shortcut(t('common:pages.categories'), '/categories'),
      shortcut(t('common:pages.news'), '/article/news'),
      shortcut(t('common:manifest.recentlyPlayed'), '/user'),
    ],
  };
}
