import { describe, expect, it } from 'vitest';
import { invalidParameter, isNotFoundData, pageNotFound, pagePath } from './route-errors.ts';

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}

describe('404s of spec section 2', () => {
  it('an invalid parameter: 404 "Page Not Found: {path}"', () => {
    const error = thrown(() => invalidParameter(new URL('http://x/zh-CN/app/bad!')));
    expect(error).toMatchObject({
      init: { status: 404 },
      data: { message: 'Page Not Found: /zh-CN/app/bad!', kind: 'invalid-parameter', path: '/zh-CN/app/bad!' },
    });
  });

  it('an unmatched route: 404 "Page not found: {path}"', () => {
    const error = thrown(() => pageNotFound(new Request('http://x/nothing')));
    expect(error).toMatchObject({ init: { status: 404 }, data: { message: 'Page not found: /nothing', kind: 'unmatched' } });
    expect(isNotFoundData((error as { data: unknown }).data)).toBe(true);
  });

  it('the path of a data request loses its .data suffix', () => {
    expect(pagePath(new Request('http://x/app/bad!.data?_routes=routes/app'))).toBe('/app/bad!');
    expect(pagePath(new Request('http://x/_.data'))).toBe('/');
    expect(pagePath(new Request('http://x/zh-CN.data'))).toBe('/zh-CN');
    expect(pagePath(new Request('http://x/about'))).toBe('/about');
    expect(pagePath(new URL('http://x/about'))).toBe('/about');
  });
});
