import type { PixelIds } from '#common/api/tracking.schema.ts';
import { type Locale, localeDefinition, localeOfPath } from '#common/locales.ts';
import { api } from '../../lib/api-client.ts';
import { onIdle } from '../../lib/idle.ts';
import { readCookie } from '../../lib/cookies.ts';
import type { TrackDetail } from '../../lib/track.ts';
import { session } from '../accounts/session.ts';
import { consent } from './consent.ts';

/**
 * The Meta pixel's script in the page's language (`en_US`, `zh_CN`); its origin is in the page
 * CSP only when a pixel id is configured.
 */
export function pixelScript(locale: Locale): string {
  return `https://connect.facebook.net/${localeDefinition(locale).language.replace('-', '_')}/fbevents.js`;
}

type Fbq = ((...args: unknown[]) => void) & {
  queue?: unknown[];
  callMethod?: (...args: unknown[]) => void;
  loaded?: boolean;
  version?: string;
  push?: unknown;
};

/** Whether the visitor came from a facebook or meta campaign (the utm_source the portal keeps for 365 days). */
export function fromMetaCampaign(cookies: string): boolean {
  const source = readCookie('utm_source', cookies);
  if (!source) return false;
  let value = source;
  try {
    value = decodeURIComponent(source);
  } catch {
    // The raw value is compared.
  }
  return /^(facebook|meta)$/i.test(value.trim());
}

/**
 * What a portal tracking event becomes for the pixel (spec section 3); login is tracked as nothing.
 * Registration and purchase carry the server's keyed hashes (`ids`, GET /tracking/ids/), the same
 * event ids the Conversions API sends; without them they are not sent at all, never with a raw id.
 */
export function pixelCall(detail: TrackDetail, ids: PixelIds | null): unknown[] | null {
  switch (detail.event) {
    case 'registration':
      return ids ? ['track', 'CompleteRegistration', {}, { eventID: ids.registrationEventId }] : null;
    case 'game-loaded':
      return ['trackCustom', 'GameLoaded', { name: (detail.data as { name: string }).name }];
    case 'pwa-install':
      return ['trackCustom', 'PWAInstall', {}];
    case 'purchase': {
      const { amount, currency } = detail.data as { amount: number; currency: string };
      return ids?.purchase
        ? ['track', 'Purchase', { value: amount, currency: currency || 'USD', order_id: ids.purchase.orderId }, { eventID: ids.purchase.eventId }]
        : null;
    }
    default:
      return null;
  }
}

/** The server's hashed ids for the signed-in visitor (and an order); null without a session or an answer. */
async function pixelIds(orderId?: string): Promise<PixelIds | null> {
  // A visitor who declined meanwhile (Settings) is not asked about: the server would refuse with 403.
  if (!session.snapshot().userInfo || consent.get() !== 'accepted') return null;
  try {
    return (await api.get('/tracking/ids/', { query: orderId === undefined ? {} : { order_id: orderId } })).data;
  } catch {
    return null;
  }
}

/** Resolves once the page has an account (a first visit's guest is still being made), or after `ms` without one. */
function signedIn(ms: number): Promise<void> {
  if (session.snapshot().userInfo) return Promise.resolve();
  return new Promise((done) => {
    const finish = () => {
      clearTimeout(timer);
      stop();
      done();
    };
    const timer = setTimeout(finish, ms);
    const stop = session.subscribe(() => {
      if (session.snapshot().userInfo) finish();
    });
  });
}

/** How long the pixel waits for a first visit's guest account, so its init carries the external id. */
const SESSION_WAIT_MS = 10_000;

let started = false;
let loading = false;
let loaded = false;
/** Events of this page before the pixel loaded (a game may load first); sent once it has, never otherwise. */
const waiting: TrackDetail[] = [];
const MAX_WAITING = 20;
/** Events go out in the order they happened, though some wait for their ids. */
let sending: Promise<void> = Promise.resolve();

function sendToPixel(detail: TrackDetail): void {
  sending = sending.then(async () => {
    const ids =
      detail.event === 'registration' || detail.event === 'purchase'
        ? await pixelIds(detail.event === 'purchase' ? (detail.data as { order_id: string }).order_id : undefined)
        : null;
    const call = pixelCall(detail, ids);
    if (call) (window as unknown as { fbq: Fbq }).fbq(...call);
  });
}

/**
 * Starts the pixel for this page (decision 065): only with a pixel id, for a visitor from a
 * facebook or meta campaign who accepted, after the page is interactive; never blocking render.
 * A later acceptance loads it then. Events come from the portal's `playport:track` events.
 */
export function startPixel(pixelId: string): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const load = async () => {
    if (loading || consent.get() !== 'accepted' || !fromMetaCampaign(document.cookie)) return;
    loading = true;
    const fbq: Fbq = function (...args: unknown[]) {
      if (fbq.callMethod) fbq.callMethod(...args);
      else fbq.queue!.push(args);
    };
    fbq.queue = [];
    fbq.loaded = true;
    fbq.version = '2.0';
    fbq.push = fbq;
    const w = window as unknown as { fbq?: Fbq; _fbq?: Fbq };
    w.fbq = fbq;
    w._fbq ??= fbq;
    // Before init: no automatic configuration, which would read the page's forms (email, phone) and buttons.
    fbq('set', 'autoConfig', false, pixelId);
    // The script takes the calls in order, queued or not, so it may load while the ids are asked for.
    const script = document.createElement('script');
    script.async = true;
    script.src = pixelScript(localeOfPath(window.location.pathname));
    document.head.append(script);
    await signedIn(SESSION_WAIT_MS);
    const ids = await pixelIds();
    fbq('init', pixelId, ids ? { external_id: ids.externalId } : {});
    fbq('track', 'PageView');
    loaded = true;
    for (const detail of waiting.splice(0)) sendToPixel(detail);
  };
  window.addEventListener('playport:track', (event) => {
    const detail = (event as CustomEvent<TrackDetail>).detail;
    if (loaded) sendToPixel(detail);
    else if (waiting.length < MAX_WAITING) waiting.push(detail);
  });
  consent.subscribe(() => void load());
  // After the page is interactive, when the main thread is idle.
  onIdle(() => void load());
}

/** A page view of the tracking middleware's routes (home, app, play) after a client navigation. */
export function pixelPageView(): void {
  if (loaded) (window as unknown as { fbq: Fbq }).fbq('track', 'PageView');
}
