import { forgetPersonalPages } from '../install/service-worker-registration.ts';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import { TOKEN_COOKIE } from '#common/constants.ts';
import { emptyI18n, loadedI18n } from '../../i18n/i18n.ts';
import { api } from '../../lib/api-client.ts';
import { readCookie, writeBrowserCookie } from '../../lib/cookies.ts';
import { onIdle, yieldToPage } from '../../lib/idle.ts';
import { track } from '../../lib/track.ts';
import { secureCookiesFor } from '../../middleware/campaign-tags.ts';
import { KNOWN_USER_KEY, showAccountHint } from './account-hint.ts';
import { deviceFingerprint, FINGERPRINT_WAIT_MS } from './device-fingerprint.ts';
import { deviceId } from './device-id.ts';
import { type SessionChannel, type SessionEnvironment, type SessionMessage, SessionStore } from './session-store.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { toast } from '../../shell/toast-store.ts';
import { displayName } from './display-name.ts';
import { CRAWLER_ATTRIBUTE } from './page-session.ts';
import { decodeTokenCookie, encodeTokenCookie, TOKEN_OFFER_COOKIE, tokenCookieOptions } from './session-token.ts';
import { localeOfPath } from '#common/locales.ts';

/** The named channel the tabs share session changes on (spec section 4). */
const SESSION_CHANNEL = 'playport:session';
/** The Web Lock that lets one tab at a time create an anonymous account. */
const SESSION_LOCK = 'playport:session';
/** How long after a guest's page settles its device is recorded (decision 066): after the first seconds a visitor spends on the page. */
const DEVICE_RECORDING_DELAY_MS = 6000;
/** Hashes per slice of the guest challenge's proof of work. */
const PROOF_OF_WORK_SLICE = 256;
/**
 * localStorage key prefix of the guests whose device this browser recorded. Not the earlier
 * `playport:device:`: those recordings had no device id, so each guest records its device again.
 */
const DEVICE_RECORDED_KEY = 'playport:device-recorded:';

/** A flag kept in localStorage; storage may be unavailable (private modes), then nothing is kept. */
function storedFlag(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function storeFlag(key: string): void {
  try {
    localStorage.setItem(key, '1');
  } catch {
    // Unavailable storage: the device is recorded again on a later page, which changes nothing.
  }
}

/** The id part of a token (`{id}|{random}`): enough to tell tokens apart, and no secret. */
const tokenId = (token: string) => token.split('|')[0] ?? '';

const knownUserInfo: SessionEnvironment['knownUserInfo'] = {
  read(token) {
    try {
      const kept = JSON.parse(localStorage.getItem(KNOWN_USER_KEY) ?? 'null') as { tokenId: string; userInfo: UserInfo } | null;
      return kept?.tokenId === tokenId(token) ? kept.userInfo : null;
    } catch {
      return null;
    }
  },
  write(token, userInfo) {
    showAccountHint(token ? userInfo : null);
    try {
      if (token && userInfo) localStorage.setItem(KNOWN_USER_KEY, JSON.stringify({ tokenId: tokenId(token), userInfo }));
      else localStorage.removeItem(KNOWN_USER_KEY);
    } catch {
      // Unavailable storage: offline pages name the visitor "Guest", as before.
    }
  },
};

function broadcastChannel(): SessionChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  return {
    // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a BroadcastChannel only reaches this origin's pages
    post: (message) => channel.postMessage(message),
    listen(handler) {
      const listener = (event: MessageEvent<SessionMessage>) => handler(event.data);
      channel.addEventListener('message', listener);
      return () => channel.removeEventListener('message', listener);
    },
  };
}

const secure = () => secureCookiesFor(window.location.origin);

/** How long the notice that another tab ended the session stays: longer than a toast, it changes what the person plays as. */
const ENDED_ELSEWHERE_TOAST_MS = 10_000;

/**
 * Runs `show` once the person can see this tab: a change made in another tab reaches this one
 * while it is in the background, where a toast would close before anyone saw it.
 */
function whenSeen(show: () => void): void {
  if (document.visibilityState === 'visible') return show();
  const onChange = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', onChange);
    show();
  };
  document.addEventListener('visibilitychange', onChange);
}

/** Set once the page is being closed or left for good (pagehide, not into the back/forward cache), for `leaving()` below. */
let leavingPage = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', (event) => {
    leavingPage = !event.persisted;
  });
}

function browserEnvironment(): SessionEnvironment {
  return {
    api,
    readToken: () => decodeTokenCookie(readCookie(TOKEN_COOKIE, document.cookie)),
    writeToken: (token) => {
      if (token !== decodeTokenCookie(readCookie(TOKEN_COOKIE, document.cookie))) forgetPersonalPages();
      writeBrowserCookie(TOKEN_COOKIE, token === null ? '' : encodeTokenCookie(token), tokenCookieOptions(token, secure()));
    },
    channel: broadcastChannel(),
    exclusive: (task) => (navigator.locks ? navigator.locks.request(SESSION_LOCK, task) : task()),
    fingerprint: () => deviceFingerprint(FINGERPRINT_WAIT_MS),
    deviceId,
    // Well after the page has loaded and settled, at an idle moment (decision 066).
    whenQuiet: (task) => {
      setTimeout(() => onIdle(task, 10_000), DEVICE_RECORDING_DELAY_MS);
    },
    knownUserInfo,
    recordedDevices: {
      has: (uid) => storedFlag(`${DEVICE_RECORDED_KEY}${uid}`),
      add: (uid) => storeFlag(`${DEVICE_RECORDED_KEY}${uid}`),
    },
    // The server checks the user agent (isbot) and marks the page; the browser loads no crawler list.
    isCrawler: () => document.documentElement.hasAttribute(CRAWLER_ATTRIBUTE),
    onLogin: (uid) => track('login', { uid }),
    onRegistration: (uid) => track('registration', { uid }),
    onSessionEndedElsewhere(ended, next) {
      whenSeen(() => {
        const locale = localeOfPath(window.location.pathname);
        const { t } = loadedI18n(locale) ?? emptyI18n(locale);
        const title =
          next && !next.isGuest
            ? t('accounts:elsewhere.switched', { name: displayName(ended, t), next: displayName(next, t) })
            : t('accounts:elsewhere.signedOut', { name: displayName(ended, t) });
        toast.add({ title, color: 'info', duration: ENDED_ELSEWHERE_TOAST_MS });
      });
    },
    // Loaded on first use: pages whose visitor already has a session never fetch it.
    solveChallenge: ({ challenge, difficulty }) => solveOffThePage(challenge, difficulty),
    later: (task, ms) => {
      setTimeout(task, ms);
    },
    now: () => Date.now(),
    online: () => navigator.onLine,
    leaving: () => leavingPage,
    takeTokenOffer() {
      const offer = decodeTokenCookie(readCookie(TOKEN_OFFER_COOKIE, document.cookie));
      if (offer) writeBrowserCookie(TOKEN_OFFER_COOKIE, '', { maxAgeDays: 0, sameSite: 'Strict', secure: secure() });
      return offer;
    },
    async confirmSwitch(offered, current) {
      const locale = localeOfPath(window.location.pathname);
      const { t } = loadedI18n(locale) ?? emptyI18n(locale);
      return confirm({
        title: t('accounts:switchOffer.title', { offered: displayName(offered, t) }),
        message: current
          ? t('accounts:switchOffer.message', { offered: displayName(offered, t), current: displayName(current, t) })
          : t('accounts:switchOffer.messageNoSession', { offered: displayName(offered, t) }),
        confirmButton: t('accounts:switchOffer.confirm', { offered: displayName(offered, t) }),
        cancelButton: t('accounts:switchOffer.cancel'),
        type: 'warning',
        icon: 'warning',
      });
    },
    message: (key) => loadedI18n(localeOfPath(window.location.pathname))?.t(key) ?? key,
  };
}

/** The page's one session. Its browser environment is made on first use, so the server never touches it. */
export const session = new SessionStore(browserEnvironment);

/**
 * The proof of work in a worker, so a first visit's page never waits on it; where a worker cannot
 * start, on the page in small slices (a few milliseconds each on a slow phone), yielding between them.
 */
async function solveOffThePage(challenge: string, difficulty: number): Promise<string> {
  try {
    const worker = new Worker(new URL('./proof-of-work.worker.ts', import.meta.url), { type: 'module' });
    return await new Promise<string>((resolve, reject) => {
      worker.addEventListener('message', (event: MessageEvent<string>) => resolve(event.data), { once: true });
      worker.addEventListener('error', (event) => reject(new Error(event.message)), { once: true });
      // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a Worker's postMessage takes no origin
      worker.postMessage({ challenge, difficulty });
    }).finally(() => worker.terminate());
  } catch {
    return (await import('#common/proof-of-work.ts')).solve(challenge, difficulty, yieldToPage, PROOF_OF_WORK_SLICE);
  }
}
