import { describe, expect, it } from 'vitest';
import { backendOriginOf, cleanBackendOrigins } from './backend-origins.ts';

/** Values that would end or widen the connect-src source list if they reached the policy as written. */
const ATTACK_VALUES = [
  'https://x;frame-ancestors',
  'https://x;frame-ancestors https://evil.test',
  'https://*',
  'https://*.example.com',
  'https://a,b',
  "https://x'",
  "https://x'unsafe-inline'",
  'https://x y',
  'https://x\ty',
  ' https://api.example.com',
  'https://api.example.com/path',
  'https://api.example.com/?q=1',
  'https://api.example.com?',
  'https://api.example.com#top',
  'https://user:pass@api.example.com',
  'https://user@api.example.com',
  'https:\\\\api.example.com',
  'https:api.example.com',
  'https://api_x.example.com',
  'https://-api.example.com',
  'https://api.example.com.',
  'http://api.example.com',
  'ws://api.example.com',
  'http://localhost.evil.test',
  'javascript://api.example.com',
  'data:text/plain,x',
  'ftp://api.example.com',
  "'self'",
  '*',
  '',
];

describe('backend origins (decision 107)', () => {
  it('takes real origins and gives each back as rebuilt from the parsed URL', () => {
    expect(backendOriginOf('https://api.example.com')).toBe('https://api.example.com');
    expect(backendOriginOf('https://api.example.com/')).toBe('https://api.example.com');
    expect(backendOriginOf('https://API.Example.com:8443')).toBe('https://api.example.com:8443');
    expect(backendOriginOf('https://api.example.com:443')).toBe('https://api.example.com');
    expect(backendOriginOf('wss://live.example.com')).toBe('wss://live.example.com');
    expect(backendOriginOf('https://203.0.113.9')).toBe('https://203.0.113.9');
    expect(backendOriginOf('https://[2001:db8::1]:8443')).toBe('https://[2001:db8::1]:8443');
    expect(backendOriginOf('https://bücher.example')).toBe('https://xn--bcher-kva.example');
    // A studio's backend on its own machine in development.
    expect(backendOriginOf('http://localhost:8787')).toBe('http://localhost:8787');
    expect(backendOriginOf('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(backendOriginOf('ws://[::1]:8787')).toBe('ws://[::1]:8787');
  });

  it('refuses wildcards, source-list separators, quotes, paths, credentials and plain http elsewhere', () => {
    for (const value of ATTACK_VALUES) expect(backendOriginOf(value), JSON.stringify(value)).toBeNull();
  });

  it('keeps only clean origins among stored values, each once', () => {
    expect(
      cleanBackendOrigins(['https://api.example.com', 'https://x;frame-ancestors', 'https://*', 7, 'https://api.example.com/', 'wss://live.example.com']),
    ).toEqual(['https://api.example.com', 'wss://live.example.com']);
  });
});
