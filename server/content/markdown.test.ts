import { describe, expect, it } from 'vitest';
import { readingMinutes, renderMarkdown } from './markdown.ts';

describe('renderMarkdown', () => {
  it('drops scripts and event handlers but keeps the text around them', () => {
    const html = renderMarkdown('Safe <script>alert("x")</script> text <img src="a.png" onerror="alert(1)"> [x](javascript:alert(1))');
    expect(html).not.toMatch(/<script|alert\("x"\)|onerror|javascript:/);
    expect(html).toContain('Safe');
    expect(html).toContain('text');
  });

  it('adds rel noopener to links, and target blank with noreferrer to external ones', () => {
    const html = renderMarkdown('[in](/app/2048) [out](https://example.com)');
    expect(html).toContain('<a href="/app/2048" rel="noopener">in</a>');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer" target="_blank">out</a>');
  });

  it('gives images their size and lazy loading', () => {
    const html = renderMarkdown('![cover](covers/1.svg)', {
      resolveImage: (src) => `/content/${src}`,
      imageSize: () => ({ width: 1200, height: 630 }),
    });
    expect(html).toContain('src="/content/covers/1.svg"');
    expect(html).toContain('width="1200"');
    expect(html).toContain('height="630"');
    expect(html).toContain('loading="lazy"');
  });

  it('keeps tables, lists and headings', () => {
    const html = renderMarkdown('## Title\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<li>a</li>');
    expect(html).toContain('<td>1</td>');
  });
});

describe('readingMinutes', () => {
  it('counts Latin words and Chinese characters', () => {
    expect(readingMinutes('word '.repeat(440))).toBe(2);
    expect(readingMinutes('字'.repeat(800))).toBe(2);
    expect(readingMinutes('')).toBe(1);
  });
});
