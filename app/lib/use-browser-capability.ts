import { subscribeNever, useBrowserStore } from './use-browser-store.ts';

/**
 * A fact about the browser that does not change while the page lives (a share sheet, WebAuthn).
 * False on the server and while hydrating, so both render the same; the browser's answer after.
 * `check` must keep its identity between renders (a module function).
 */
export function useBrowserCapability(check: () => boolean): boolean {
  return useBrowserStore(subscribeNever, check, false);
}
