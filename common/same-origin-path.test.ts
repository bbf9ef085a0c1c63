import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './same-origin-path.ts';

const FALLBACK = '/fallback';

/** Whether a Location header with this value, resolved as a browser does, stays on the site. */
function staysOnSite(location: string): boolean {
  // Browsers strip tabs and newlines before parsing and treat a backslash as a slash.
  const cleaned = location.replace(/[\t\n\r]/g, '');
  return new URL(cleaned, 'https://portal.example/some/page').origin === 'https://portal.example';
}

describe('sameOriginPath', () => {
  const hostile: Array<[string, string]> = [
    ['protocol-relative', '//evil.example/'],
    ['protocol-relative with path', '//evil.example/login?x=1'],
    ['backslash', '/\\evil.example/'],
    ['double backslash', '/\\\\evil.example'],
    ['dot segment then slashes', '/.//evil.example'],
    ['dot-dot segment then slashes', '/a/..//evil.example'],
    ['tab between slashes', '/\t/evil.example'],
    ['newline between slashes', '/\n/evil.example'],
    ['carriage return', '/\r/evil.example'],
    ['NUL byte', '/\u0000/evil.example'],
    ['absolute http URL', 'http://evil.example/'],
    ['absolute https URL', 'https://evil.example/path'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['data scheme', 'data:text/html,<script>alert(1)</script>'],
    ['no leading slash', 'evil.example/path'],
    ['empty', ''],
  ];
  it.each(hostile)('refuses %s', (_name, value) => {
    const result = sameOriginPath(value, FALLBACK);
    expect(staysOnSite(result)).toBe(true);
    expect(result).toBe(FALLBACK);
  });

  const encoded: Array<[string, string]> = [
    ['encoded slashes', '/%2f%2fevil.example/'],
    ['encoded upper-case slashes', '/%2F%2Fevil.example/'],
    ['encoded backslash', '/%5cevil.example/'],
    ['encoded backslash after slash', '/%5c%5cevil.example'],
    ['encoded dot segment', '/%2e/%2fevil.example'],
  ];
  it.each(encoded)('keeps %s on the site (the escapes stay escaped)', (_name, value) => {
    const result = sameOriginPath(value, FALLBACK);
    expect(result.startsWith('/')).toBe(true);
    expect(result.startsWith('//')).toBe(false);
    expect(staysOnSite(result)).toBe(true);
  });

  it.each([
    ['/user', '/user'],
    ['/zh-CN/app/snake?ref=home#top', '/zh-CN/app/snake?ref=home#top'],
    ['/a/../b', '/b'],
    ['/./user', '/user'],
  ])('keeps the site path %s as %s', (value, expected) => {
    expect(sameOriginPath(value, FALLBACK)).toBe(expected);
  });

  it('falls back for null and undefined', () => {
    expect(sameOriginPath(null, FALLBACK)).toBe(FALLBACK);
    expect(sameOriginPath(undefined, FALLBACK)).toBe(FALLBACK);
  });
});
