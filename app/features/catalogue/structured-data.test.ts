import { describe, expect, it } from 'vitest';
import type { AppDetail } from '#common/api/catalogue.schema.ts';
import { appSocialMeta, appStructuredData } from './structured-data.ts';

const game: AppDetail = {
  id: 1,
  slug: 'snake',
  type: 'game',
  title: '贪吃蛇',
  summary: '吃掉苹果。',
  thumbnail: '/games/snake/thumbnail.svg',
  width: 480,
  height: 640,
  orientation: 'portrait',
  featured: false,
  playCount: 42,
  releasedAt: '2025-04-01T00:00:00.000Z',
  description: '…',
  instructions: null,
  developer: 'Playport Studio',
  screenshots: ['/uploads/catalogue/abc.png', 'https://cdn.example.com/shot.png'],
  updatedAt: '2026-01-01T00:00:00.000Z',
  categories: [{ slug: 'arcade', title: '街机动作' }],
  tags: [{ slug: 'classic', title: '经典' }],
  similar: [],
  favourite: null,
};

describe('app structured data', () => {
  it('describes a game as a free VideoGame with absolute, locale-prefixed URLs', () => {
    expect(appStructuredData(game, 'https://play.example', 'zh-CN')).toEqual({
      '@context': 'https://schema.org',
      '@type': 'VideoGame',
      name: '贪吃蛇',
      description: '吃掉苹果。',
      url: 'https://play.example/zh-CN/app/snake',
      image: 'https://play.example/games/snake/thumbnail.svg',
      inLanguage: 'zh-CN',
      datePublished: '2025-04-01',
      dateModified: '2026-01-01T00:00:00.000Z',
      operatingSystem: 'Any (web browser)',
      keywords: '经典',
      screenshot: ['https://play.example/uploads/catalogue/abc.png', 'https://cdn.example.com/shot.png'],
      author: { '@type': 'Organization', name: 'Playport Studio' },
      offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
      interactionStatistic: { '@type': 'InteractionCounter', interactionType: 'https://schema.org/PlayAction', userInteractionCount: 42 },
      applicationCategory: 'GameApplication',
      gamePlatform: 'Web browser',
      genre: ['街机动作'],
      playMode: 'SinglePlayer',
    });
  });

  it('describes an app as a SoftwareApplication', () => {
    const app = appStructuredData({ ...game, type: 'app', developer: null, screenshots: [], tags: [] }, 'https://play.example', 'en');
    expect(app).toMatchObject({ '@type': 'SoftwareApplication', applicationCategory: 'UtilitiesApplication', url: 'https://play.example/app/snake' });
    expect(app).not.toHaveProperty('author');
    expect(app).not.toHaveProperty('screenshot');
    expect(app.keywords).toBeUndefined();
  });

  it('gives Open Graph and Twitter tags', () => {
    const tags = appSocialMeta(game, 'https://play.example', 'zh-CN', 'Playport');
    expect(tags).toContainEqual({ property: 'og:url', content: 'https://play.example/zh-CN/app/snake' });
    expect(tags).toContainEqual({ property: 'og:locale', content: 'zh_CN' });
    expect(tags).toContainEqual({ property: 'og:image', content: 'https://play.example/games/snake/thumbnail.svg' });
    expect(tags).toContainEqual({ name: 'twitter:card', content: 'summary' });
  });
});
