import { sameOriginPath } from '#common/same-origin-path.ts';
import { describe, expect, it } from 'vitest';
import { loginPathFor } from './require-member.ts';
import { decodeTokenCookie, isAdoptableToken, tokenCookie, tokenFromUrl, urlWithoutToken } from './session-token.ts';

const token = `12|${'a'.repeat(47)}`;

describe('tokens in the page address (spec sections 4 and 5)', () => {
  it('adopts only a value with a pipe that is longer than 49 characters', () => {
    expect(token).toHaveLength(50);
    expect(isAdoptableToken(token)).toBe(true);
    expect(isAdoptableToken(token.slice(0, 49))).toBe(false);
    expect(isAdoptableToken('x'.repeat(60))).toBe(false);
    expect(isAdoptableToken(null)).toBe(false);
    expect(tokenFromUrl(new URL(`http://x/user?token=${encodeURIComponent(token)}`))).toBe(token);
    expect(tokenFromUrl(new URL('http://x/user?token=short|one'))).toBeNull();
  });

  it('removes the token and keeps the rest of the address', () => {
    expect(urlWithoutToken(new URL(`http://x/zh-CN/app/snake?utm_source=mail&token=${encodeURIComponent(token)}&tab=2#reviews`))).toBe(
      '/zh-CN/app/snake?utm_source=mail&tab=2#reviews',
    );
    expect(urlWithoutToken(new URL(`http://x/?token=${encodeURIComponent(token)}`))).toBe('/');
  });

  it('stores the token URL-encoded for 365 days, Secure and SameSite strict; null deletes it', () => {
    expect(tokenCookie('5|abc', true)).toBe('token=5%7Cabc; Path=/; Max-Age=31536000; SameSite=Strict; Secure');
    expect(tokenCookie(null, false)).toBe('token=; Path=/; Max-Age=0; SameSite=Strict');
    expect(decodeTokenCookie('5%7Cabc')).toBe('5|abc');
    expect(decodeTokenCookie('')).toBeNull();
  });
});

describe('token removal', () => {
  it.each([
    ['//evil.example/', '/'],
    ['/\\evil.example/', '/'],
    ['/.//evil.example/', '/'],
    ['/zh-CN/app/snake', '/zh-CN/app/snake?ref=x'],
  ])('never redirects %s off the site', (path, expected) => {
    const url = new URL(`http://portal.test${path}?token=${encodeURIComponent(token)}${path.includes('snake') ? '&ref=x' : ''}`);
    expect(urlWithoutToken(url)).toBe(expected);
  });
});

describe('return paths', () => {
  it('accepts paths of this site only', () => {
    expect(sameOriginPath('/zh-CN/user/profile/nickname?x=1#y', '/user')).toBe('/zh-CN/user/profile/nickname?x=1#y');
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '', null]) {
      expect(sameOriginPath(bad, '/user')).toBe('/user');
    }
  });

  it('sends a visitor to /login in the locale prefix they used, with the page to return to', () => {
    expect(loginPathFor(new URL('http://x/user/profile/avatar'))).toBe('/login?redirect=%2Fuser%2Fprofile%2Favatar');
    expect(loginPathFor(new URL('http://x/zh-CN/user/profile?a=1'))).toBe('/zh-CN/login?redirect=%2Fzh-CN%2Fuser%2Fprofile%3Fa%3D1');
    expect(loginPathFor(new URL('http://x/en/user/profile'))).toBe('/en/login?redirect=%2Fen%2Fuser%2Fprofile');
  });
});
