/** Tracking events of spec section 3 that the portal emits. */
export interface TrackEvents {
  'game-loaded': { name: string };
  /** Spec section 4: a new session token was set; carries the account's uid. */
  login: { uid: number };
  /** A paid order, once (decision 064): the amount in major units. */
  purchase: { amount: number; currency: string; order_id: string };
  /** A guest became a member (a password, passkey or social account): its uid. */
  registration: { uid: number };
  /** The portal was installed as an app. */
  'pwa-install': Record<string, never>;
}

/** The DOM event every tracking call dispatches on `window`; the pixel integration listens to it. */
const TRACK_EVENT = 'playport:track';

export interface TrackDetail<E extends keyof TrackEvents = keyof TrackEvents> {
  event: E;
  data: TrackEvents[E];
}

/**
 * Reports a tracking event. For now it only dispatches a `playport:track` CustomEvent, so the
 * advertising pixel can be attached later without touching the places that track.
 */
export function track<E extends keyof TrackEvents>(event: E, data: TrackEvents[E]): void {
  if (typeof window === 'undefined') return;
  window.dispatchEvent(new CustomEvent<TrackDetail<E>>(TRACK_EVENT, { detail: { event, data } }));
}
