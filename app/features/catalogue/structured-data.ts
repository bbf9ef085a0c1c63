import type { AppDetail } from '#common/api/catalogue.schema.ts';
import { type Locale, localeDefinition, localePath } from '#common/locales.ts';

/** An absolute URL on the site for a path or an already absolute URL. */
function absoluteUrl(origin: string, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : origin + pathOrUrl;
}

/** schema.org data of an app page: VideoGame for games, SoftwareApplication for apps (both free, in the browser). */
export function appStructuredData(app: AppDetail, origin: string, locale: Locale): Record<string, unknown> {
  const url = absoluteUrl(origin, localePath(locale, `/app/${app.slug}`));
  const common = {
    '@context': 'https://schema.org',
    name: app.title,
    description: app.summary,
    url,
    image: absoluteUrl(origin, app.thumbnail),
    inLanguage: localeDefinition(locale).language,
    datePublished: app.releasedAt.slice(0, 10),
    dateModified: app.updatedAt,
    operatingSystem: 'Any (web browser)',
    keywords: app.tags.map((t) => t.title).join(', ') || undefined,
    ...(app.screenshots.length > 0 ? { screenshot: app.screenshots.map((s) => absoluteUrl(origin, s)) } : {}),
    ...(app.developer ? { author: { '@type': 'Organization', name: app.developer } } : {}),
    offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    interactionStatistic: { '@type': 'InteractionCounter', interactionType: 'https://schema.org/PlayAction', userInteractionCount: app.playCount },
  };
  if (app.type === 'game') {
    return {
      ...common,
      '@type': 'VideoGame',
      applicationCategory: 'GameApplication',
      gamePlatform: 'Web browser',
      genre: app.categories.map((c) => c.title),
      playMode: 'SinglePlayer',
    };
  }
  return { ...common, '@type': 'SoftwareApplication', applicationCategory: 'UtilitiesApplication' };
}

/** Open Graph and Twitter card tags of an app page. */
export function appSocialMeta(app: AppDetail, origin: string, locale: Locale, productName: string) {
  const url = absoluteUrl(origin, localePath(locale, `/app/${app.slug}`));
  const image = absoluteUrl(origin, app.thumbnail);
  return [
    { name: 'description', content: app.summary },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: productName },
    { property: 'og:title', content: app.title },
    { property: 'og:description', content: app.summary },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { property: 'og:image:alt', content: app.title },
    { property: 'og:locale', content: localeDefinition(locale).language.replace('-', '_') },
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: app.title },
    { name: 'twitter:description', content: app.summary },
    { name: 'twitter:image', content: image },
  ];
}
