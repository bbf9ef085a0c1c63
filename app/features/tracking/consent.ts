import { AD_CONSENT_COOKIE, COOKIE_MAX_AGE_DAYS } from '#common/constants.ts';
import { readCookie, writeBrowserCookie } from '../../lib/cookies.ts';

/** The visitor's choice about advertising measurement (decision 065), kept 365 days. */
export const CONSENT_COOKIE = AD_CONSENT_COOKIE;
export type Consent = 'accepted' | 'declined';

type Listener = () => void;
const listeners = new Set<Listener>();

export const consent = {
  /** The stored choice, or null before the visitor chose. */
  get(): Consent | null {
    if (typeof document === 'undefined') return null;
    const value = readCookie(CONSENT_COOKIE, document.cookie);
    return value === 'accepted' || value === 'declined' ? value : null;
  },
  set(choice: Consent): void {
    writeBrowserCookie(CONSENT_COOKIE, choice, {
      maxAgeDays: COOKIE_MAX_AGE_DAYS,
      sameSite: 'Lax',
      secure: window.location.protocol === 'https:' || window.location.hostname === 'localhost',
    });
    for (const listener of listeners) listener();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
