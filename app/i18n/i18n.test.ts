import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '#common/i18n/resources.ts';
import { emptyI18n, i18nFor, loadedI18n, loadLocaleMessages, messagesUrl } from './i18n.ts';

describe('locale messages', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a failed load warns "Failed loading locale", resolves false and loads nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetcher = (async () => new Response('nope', { status: 503 })) as typeof fetch;
    expect(await loadLocaleMessages('zh-CN', fetcher)).toBe(false);
    expect(warn).toHaveBeenCalledWith('Failed loading locale', 'zh-CN', expect.any(Error));
    expect(loadedI18n('zh-CN')).toBeUndefined();
  });

  it('loads /{locale}/messages.json once, then translates with it', async () => {
    const urls: string[] = [];
    const fetcher = (async (url: string) => {
      urls.push(url);
      return Response.json(MESSAGES['zh-CN']);
    }) as typeof fetch;
    const [a, b] = await Promise.all([loadLocaleMessages('zh-CN', fetcher), loadLocaleMessages('zh-CN', fetcher)]);
    expect([a, b]).toEqual([true, true]);
    expect(await loadLocaleMessages('zh-CN', fetcher)).toBe(true);
    expect(urls).toEqual(['/zh-CN/messages.json']);
    expect(loadedI18n('zh-CN')!.t('shell:notFound.title')).toBe('页面不存在');
  });

  it('the messages address carries the build, so a new release never reads cached texts', () => {
    expect(messagesUrl('zh-CN', 'abc/1')).toBe('/zh-CN/messages.json?v=abc%2F1');
    expect(messagesUrl('en', undefined)).toBe('/en/messages.json');
  });

  it('without messages the stand-in shows keys and is not taken for loaded', () => {
    expect(emptyI18n('zh-CN').t('shell:notFound.title')).toBe('notFound.title');
    expect(loadedI18n('zh-CN')).not.toBe(emptyI18n('zh-CN'));
  });

  it('each locale has its own instance, fixed to that language', () => {
    const en = i18nFor('en', MESSAGES.en);
    expect(en.t('shell:notFound.description')).toBe('We are sorry but this page could not be found.');
    expect(en.t('shell:notFound.unmatched', { path: '/x' })).toBe('Page not found: /x');
    expect(en.t('shell:notFound.invalidParameter', { path: '/app/a!' })).toBe('Page Not Found: /app/a!');
    expect(loadedI18n('en')).toBe(en);
  });
});
