import { forgetPersonalPages } from '../install/service-worker-registration.ts';
import { TOKEN_COOKIE } from '#common/constants.ts';
import { emptyI18n, loadedI18n } from '../../i18n/i18n.ts';
import { api } from '../../lib/api-client.ts';
import { readCookie, writeBrowserCookie } from '../../lib/cookies.ts';
import { track } from '../../lib/track.ts';
import { secureCookiesFor } from '../../middleware/campaign-tags.ts';
import { deviceFingerprint, FINGERPRINT_WAIT_MS } from './device-fingerprint.ts';
import { type SessionChannel, type SessionEnvironment, type SessionMessage, SessionStore } from './session-store.ts';
import { confirm } from '../../shell/confirm-store.ts';
import { displayName } from './display-name.ts';
import { decodeTokenCookie, encodeTokenCookie, TOKEN_OFFER_COOKIE, tokenCookieOptions } from './session-token.ts';
import { localeOfPath } from '#common/locales.ts';

/** The named channel the tabs share session changes on (spec section 4). */
const SESSION_CHANNEL = 'playport:session';
/** The Web Lock that lets one tab at a time create an anonymous account. */
const SESSION_LOCK = 'playport:session';

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
    fingerprint: (purpose) => deviceFingerprint(FINGERPRINT_WAIT_MS[purpose]),
    async isBot() {
      const { isbot } = await import('isbot');
      return isbot(navigator.userAgent);
    },
    onLogin: (uid) => track('login', { uid }),
    onRegistration: (uid) => track('registration', { uid }),
    // Loaded on first use: pages whose visitor already has a session never fetch it.
    solveChallenge: async ({ challenge, difficulty }) => (await import('#common/proof-of-work.ts')).solve(challenge, difficulty),
    later: (task, ms) => {
      setTimeout(task, ms);
    },
    now: () => Date.now(),
    online: () => navigator.onLine,
    takeTokenOffer() {
      const offer = decodeTokenCookie(readCookie(TOKEN_OFFER_COOKIE, document.cookie));
      if (offer) writeBrowserCookie(TOKEN_OFFER_COOKIE, '', { maxAgeDays: 0, sameSite: 'Strict', secure: secure() });
      return offer;
    },
    async confirmSwitch(offered, current) {
      const locale = localeOfPath(window.location.pathname);
      const i18n = loadedI18n(locale) ?? emptyI18n(locale);
      const t = i18n.t.bind(i18n);
      return confirm({
        title: t('accounts:switchOffer.title'),
        message: t('accounts:switchOffer.message', { offered: displayName(offered, t), current: current ? displayName(current, t) : '' }),
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
