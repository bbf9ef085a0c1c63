/**
 * Runs work when the main thread is idle (at the latest after `timeoutMs`), so that it never
 * competes with a paint or an input; a timer where the browser has no idle callbacks (Safari).
 */
export function onIdle(work: () => void, timeoutMs = 3000): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(work, { timeout: timeoutMs });
  else setTimeout(work, Math.min(timeoutMs, 1500));
}
