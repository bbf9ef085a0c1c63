import { describe, expect, it } from 'vitest';
import { passkeyName } from './passkey-names.ts';

describe('passkeyName', () => {
  it('names a well-known authenticator by its AAGUID, whatever the browser', () => {
    expect(passkeyName('EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0')).toBe('Google Password Manager');
    expect(passkeyName('fbfc3007-154e-4ecc-8c0b-6e020557d7bd', undefined)).toBe('iCloud Keychain');
  });

  it('otherwise names the browser and platform, and says "Passkey" when it knows neither', () => {
    const zero = '00000000-0000-0000-0000-000000000000';
    expect(passkeyName(zero, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36 Edg/140.0')).toBe('Edge on Windows');
    expect(passkeyName(zero, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1')).toBe(
      'Safari on iOS',
    );
    expect(passkeyName(zero, 'Mozilla/5.0 (Linux; Android 15; Pixel 7) AppleWebKit/537.36 Chrome/140.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(passkeyName(zero, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:140.0) Gecko/20100101 Firefox/140.0')).toBe('Firefox on macOS');
    expect(passkeyName(zero, 'curl/8.0')).toBe('Passkey');
    expect(passkeyName(zero, undefined)).toBe('Passkey');
  });
});
