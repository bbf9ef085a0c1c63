import { OAUTH_CHANNEL, type OAuthPlatform } from '#common/social-platforms.ts';

/** The pop-up's message data (spec section 3): platform plus the provider's answer and the page's flow id. */
export interface OAuthMessageData {
  platform: string;
  flow: string;
  code?: string;
  state?: string;
  /** Apple's `user` field: the name, on the first sign-in only. */
  user?: string;
  /** The provider's error code when the person declined or the provider failed. */
  error?: string;
}

export interface OAuthMessage {
  action: 'oauth';
  data: OAuthMessageData;
}

/** Spec section 4: the pop-up opens after 300 ms, 960x600, centred; it is polled every 1000 ms. */
export const POPUP_DELAY_MS = 300;
export const POPUP_POLL_MS = 1000;
export const POPUP_SIZE = { width: 960, height: 600 } as const;
/** A flow's answer is taken for as long as the server keeps the flow. */
const LISTEN_MS = 10 * 60 * 1000;

/** A new flow id: 16 random bytes, base64url (22 characters). */
export function newFlowId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** The address the pop-up opens: the link page of the platform with the flow id. */
export function linkPageUrl(platform: OAuthPlatform, flow: string): string {
  return `/oauth/${platform}/link?flow=${encodeURIComponent(flow)}`;
}

/** window.open features of a 960x600 window centred on the current one (smaller screens get what fits). */
export function popupFeatures(view: {
  screenX: number;
  screenY: number;
  outerWidth: number;
  outerHeight: number;
  availWidth: number;
  availHeight: number;
}): string {
  const width = Math.min(POPUP_SIZE.width, view.availWidth);
  const height = Math.min(POPUP_SIZE.height, view.availHeight);
  const left = Math.max(0, Math.round(view.screenX + (view.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(view.screenY + (view.outerHeight - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

/**
 * Whether a message is the answer to this page's flow (spec section 3): action "oauth" from the
 * portal's own origin, naming the platform and the flow this page started. Anything else, from
 * another origin or for another flow, is ignored.
 */
export function isAnswer(message: unknown, origin: string, expected: { origin: string; platform: string; flow: string }): message is OAuthMessage {
  if (origin !== expected.origin || typeof message !== 'object' || message === null) return false;
  const { action, data } = message as { action?: unknown; data?: Partial<OAuthMessageData> };
  return action === 'oauth' && typeof data === 'object' && data !== null && data.platform === expected.platform && data.flow === expected.flow;
}

export interface PopupHandlers {
  /** The answer arrived (at most once). */
  onAnswer(data: OAuthMessageData): void;
  /** The browser refused to open the window. */
  onBlocked(): void;
  /**
   * The window looks closed without an answer. A provider whose pages cut the opener
   * (Cross-Origin-Opener-Policy) makes it look closed while the person is still signing in, so
   * an answer may still come after this, on the channel; `onAnswer` then runs.
   */
  onClosed(): void;
}

/**
 * Runs one pop-up flow: opens the platform's link page after 300 ms, takes the answer from the
 * BroadcastChannel or the opener message, and polls the window every second. Returns a function
 * that stops listening and closes the window.
 */
export function runOAuthPopup(platform: OAuthPlatform, flow: string, handlers: PopupHandlers): () => void {
  const expected = { origin: window.location.origin, platform, flow };
  let popup: Window | null = null;
  let done = false;
  let closedTold = false;
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(OAUTH_CHANNEL);

  const stop = () => {
    done = true;
    channel?.close();
    window.removeEventListener('message', onWindowMessage);
    clearTimeout(opening);
    clearInterval(polling);
    clearTimeout(giveUp);
  };
  const answer = (message: OAuthMessage) => {
    if (done) return;
    stop();
    handlers.onAnswer(message.data);
  };
  function onWindowMessage(event: MessageEvent) {
    if (isAnswer(event.data, event.origin, expected)) answer(event.data);
  }
  channel?.addEventListener('message', (event: MessageEvent) => {
    if (isAnswer(event.data, event.origin || expected.origin, expected)) answer(event.data);
  });
  window.addEventListener('message', onWindowMessage);

  const opening = setTimeout(() => {
    popup = window.open(
      linkPageUrl(platform, flow),
      `oauth-${platform}`,
      popupFeatures({ ...window, availWidth: window.screen.availWidth, availHeight: window.screen.availHeight }),
    );
    if (!popup) {
      stop();
      handlers.onBlocked();
    }
  }, POPUP_DELAY_MS);
  const polling = setInterval(() => {
    if (!popup || !popup.closed || closedTold) return;
    closedTold = true;
    clearInterval(polling);
    handlers.onClosed();
  }, POPUP_POLL_MS);
  const giveUp = setTimeout(stop, LISTEN_MS);

  return () => {
    stop();
    if (popup && !popup.closed) popup.close();
  };
}

/** The same flow in this tab when pop-ups are blocked: the callback page finishes it and comes back. */
export interface SameTabFlow {
  platform: OAuthPlatform;
  flow: string;
  kind: 'login' | 'link';
  /** Where to come back to: a path of this site. */
  returnTo: string;
}

const SAME_TAB_KEY = 'oauth-same-tab';

export function saveSameTabFlow(flow: SameTabFlow): void {
  sessionStorage.setItem(SAME_TAB_KEY, JSON.stringify(flow));
}

/** The same-tab flow this answer belongs to, taken out of storage (used once); null when there is none. */
export function takeSameTabFlow(data: OAuthMessageData): SameTabFlow | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(SAME_TAB_KEY) ?? 'null') as SameTabFlow | null;
    if (!stored || stored.flow !== data.flow || stored.platform !== data.platform) return null;
    sessionStorage.removeItem(SAME_TAB_KEY);
    return stored;
  } catch {
    return null;
  }
}
