/**
 * Runs work when the main thread is idle (at the latest after `timeoutMs`), so that it never
 * competes with a paint or an input; a timer where the browser has no idle callbacks (Safari).
 */
export function onIdle(work: () => void, timeoutMs = 3000): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(work, { timeout: timeoutMs });
  else setTimeout(work, Math.min(timeoutMs, 1500));
}

/**
 * Lets the page handle input and paint between slices of long work, without the 4 ms minimum a
 * chain of zero timeouts gets: `scheduler.yield()` where the browser has it, else a message.
 */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.addEventListener('message', () => resolve(), { once: true });
    channel.port1.start();
    channel.port2.postMessage(null);
  });
}
