import { describe, expect, it } from 'vitest';
import { atomFeed } from './articles.feed.ts';
import type { FeedEntry } from './articles.service.ts';
import { escapeXml, xmlText } from './xml.ts';

const entry: FeedEntry = {
  id: 7,
  slug: 'tips',
  title: 'Tips & <tricks> "quoted"',
  summary: "Rock 'n' roll",
  cover: null,
  author: null,
  publishedAt: '2026-05-01T09:00:00.000Z',
  updatedAt: '2026-04-01T00:00:00.000Z',
  readingMinutes: 2,
  tags: ['a&b'],
  column: { slug: 'guides', title: 'Guides' },
  path: '/article/guides/7',
  body: '<p>See <a href="/app/snake" rel="noopener">Snake</a> &amp; <img src="/uploads/articles/x.svg" width="2" height="1" /></p>\n',
};

describe('atomFeed', () => {
  const xml = atomFeed({
    origin: 'https://play.example',
    productName: 'Playport',
    locale: 'zh-CN',
    column: { slug: 'guides', title: 'Guides', description: null, cover: null, parent: null, children: [], path: '/article/guides' },
    entries: [entry],
    selfPath: '/feeds/guides.zh-CN.xml',
    now: new Date('2026-11-22T00:00:00Z'),
  });

  it('escapes every text and attribute', () => {
    expect(xml).toContain('<title>Tips &amp; &lt;tricks&gt; &quot;quoted&quot;</title>');
    expect(xml).toContain('<summary>Rock &apos;n&apos; roll</summary>');
    expect(xml).toContain('<category term="a&amp;b"/>');
    expect(xml).not.toMatch(/<(p|a|img)[ >]/);
  });

  it('makes links and images absolute, in the locale of the feed', () => {
    expect(xml).toContain('&lt;a href=&quot;https://play.example/app/snake&quot;');
    expect(xml).toContain('src=&quot;https://play.example/uploads/articles/x.svg&quot;');
    expect(xml).toContain('<link rel="alternate" type="text/html" href="https://play.example/zh-CN/article/guides/7"/>');
    expect(xml).toContain('<id>tag:play.example,2025:article/7/zh-CN</id>');
  });

  it('never dates a change before publication, and names the site when there is no author', () => {
    expect(xml).toContain('<updated>2026-05-01T09:00:00.000Z</updated>');
    expect(xml).toContain('<author><name>Playport</name></author>');
  });
});

describe('xml text', () => {
  it('drops characters XML cannot carry and escapes markup', () => {
    expect(xmlText('a\u0000b\u0007c\td\n<')).toBe('abc\td\n&lt;');
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;');
  });
});
