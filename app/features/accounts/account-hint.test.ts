import { describe, expect, it } from 'vitest';
import { ACCOUNT_HINT_ATTRIBUTE, accountHintOf, accountHintScript, KNOWN_USER_KEY } from './account-hint.ts';

/** Runs the head script against a cookie and a kept user info; returns the hint it set, or null. */
function hintSetBy(cookie: string, kept: unknown): string | null {
  const attributes = new Map<string, string>();
  const document = { cookie, documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) } };
  const localStorage = { getItem: (key: string) => (key === KNOWN_USER_KEY && kept !== undefined ? JSON.stringify(kept) : null) };
  new Function('document', 'localStorage', accountHintScript())(document, localStorage);
  return attributes.get(ACCOUNT_HINT_ATTRIBUTE) ?? null;
}

const member = { uid: '7', isGuest: false, webauthn: false, social_providers: [] as string[] };

describe('the account hint', () => {
  it('names a member, one who can sign out, and one with a passkey; nothing for a guest or no account', () => {
    expect(accountHintOf(null)).toBe('');
    expect(accountHintOf({ ...member, isGuest: true })).toBe('');
    expect(accountHintOf(member)).toBe('member');
    expect(accountHintOf({ ...member, social_providers: ['google'] })).toBe('member signout');
    expect(accountHintOf({ ...member, webauthn: true })).toBe('member signout passkey');
  });

  it('is set before paint only from the user info kept for the token in the cookie', () => {
    const cookie = `theme=1; token=${encodeURIComponent('42|secret')}; other=2`;
    expect(hintSetBy(cookie, { tokenId: '42', userInfo: member })).toBe('member');
    expect(hintSetBy(cookie, { tokenId: '42', userInfo: { ...member, social_providers: ['discord'] } })).toBe('member signout');
    expect(hintSetBy(cookie, { tokenId: '42', userInfo: { ...member, webauthn: true } })).toBe('member signout passkey');
    // Another token's user, a guest, no cookie, nothing kept, or a kept value that is not JSON: no hint.
    expect(hintSetBy(cookie, { tokenId: '41', userInfo: member })).toBeNull();
    expect(hintSetBy(cookie, { tokenId: '42', userInfo: { ...member, isGuest: true } })).toBeNull();
    expect(hintSetBy('theme=1', { tokenId: '42', userInfo: member })).toBeNull();
    expect(hintSetBy(cookie, undefined)).toBeNull();
    expect(hintSetBy(cookie, '{')).toBeNull();
  });
});
