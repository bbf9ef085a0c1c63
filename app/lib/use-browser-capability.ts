import { useSyncExternalStore } from 'react';

const subscribeNever = () => () => {};

/**
 * A fact about the browser that does not change while the page lives (a share sheet, WebAuthn).
 * False on the server and while hydrating, so both render the same; the browser's answer after.
 */
export function useBrowserCapability(check: () => boolean): boolean {
  return useSyncExternalStore(subscribeNever, check, () => false);
}
