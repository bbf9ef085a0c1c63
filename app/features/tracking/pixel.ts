import { onIdle } from '../../lib/idle.ts';
import { readCookie } from '../../lib/cookies.ts';
import type { TrackDetail } from '../../lib/track.ts';
import { session } from '../accounts/session.ts';
import { consent } from './consent.ts';

/** The Meta pixel's script; its origin is in the page CSP only when a pixel id is configured. */
export const PIXEL_SCRIPT = 'https://connect.facebook.net/en_US/fbevents.js';

type Fbq = ((...args: unknown[]) => void) & { queue?: unknown[]; callMethod?: (...args: unknown[]) => void; loaded?: boolean; version?: string; push?: unknown };

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
 * `hashedId` is common/hashed-id.ts, loaded with the pixel (not with the page).
 */
export function pixelCall(detail: TrackDetail, hashedId: (value: string | number) => string): unknown[] | null {
  switch (detail.event) {
    case 'registration': {
      const { uid } = detail.data as { uid: number };
      return ['track', 'CompleteRegistration', {}, { eventID: `registration:${uid}` }];
    }
    case 'game-loaded':
      return ['trackCustom', 'GameLoaded', { name: (detail.data as { name: string }).name }];
    case 'pwa-install':
      return ['trackCustom', 'PWAInstall', {}];
    case 'purchase': {
      const { amount, currency, order_id } = detail.data as { amount: number; currency: string; order_id: string };
      return ['track', 'Purchase', { value: amount, currency: currency || 'USD', order_id: hashedId(order_id) }, { eventID: `purchase:${order_id}` }];
    }
    default:
      return null;
  }
}

let started = false;
let loading = false;
let loaded = false;
let hash: ((value: string | number) => string) | null = null;
/** Events of this page before the pixel loaded (a game may load first); sent once it has, never otherwise. */
const waiting: TrackDetail[] = [];
const MAX_WAITING = 20;

function sendToPixel(detail: TrackDetail): void {
  const call = pixelCall(detail, hash!);
  if (call) (window as unknown as { fbq: Fbq }).fbq(...call);
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
    const { hashedId } = await import('#common/hashed-id.ts');
    hash = hashedId;
    loaded = true;
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
    const uid = session.snapshot().userInfo?.uid;
    fbq('init', pixelId, uid === undefined ? {} : { external_id: hashedId(uid) });
    fbq('track', 'PageView');
    const script = document.createElement('script');
    script.async = true;
    script.src = PIXEL_SCRIPT;
    document.head.append(script);
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
