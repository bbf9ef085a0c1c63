import { translator } from '../i18n.ts';
import { type Locale, localePath } from '#common/locales.ts';

/** The installable-app manifest in one locale. */
export function webManifest(locale: Locale, productName: string) {
  const t = translator(locale);
  return {
    id: '/',
    name: productName,
    short_name: productName,
    description: t('common:productTagline'),
    lang: locale,
    dir: 'ltr',
    start_url: localePath(locale, '/pwa'),
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#18181B',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  };
}
