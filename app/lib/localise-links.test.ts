import { describe, expect, it } from 'vitest';
import { localiseLinks } from './localise-links.ts';

describe('links in rendered Markdown', () => {
  const html = '<a href="/app/snake">x</a> <a href="https://a.example/b">y</a> <a href="//cdn.example/c">z</a> <a href="/">h</a>';

  it('get the locale prefix on another locale', () => {
    expect(localiseLinks(html, '/zh-CN')).toBe(
      '<a href="/zh-CN/app/snake">x</a> <a href="https://a.example/b">y</a> <a href="//cdn.example/c">z</a> <a href="/zh-CN/">h</a>',
    );
  });

  it('stay as they are in English', () => {
    expect(localiseLinks(html, '')).toBe(html);
  });
});
