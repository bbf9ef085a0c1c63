import { useCallback, useRef, useState } from 'react';

/** Spec sections 4 and 9: sign-in buttons are debounced at 500 ms. */
export const ACTION_DEBOUNCE_MS = 500;

/**
 * One action at a time for a group of buttons (spec section 4): while one runs, `pending` names
 * it so the others are disabled and a loading overlay shows. A press within 500 ms of the last
 * accepted one is ignored (the first press acts at once; repeats and double clicks do nothing).
 */
export function usePendingAction(): { pending: string | null; run: (id: string, action: () => Promise<void>) => void } {
  const [pending, setPending] = useState<string | null>(null);
  const running = useRef(false);
  const last = useRef(Number.NEGATIVE_INFINITY);
  const run = useCallback((id: string, action: () => Promise<void>) => {
    const now = performance.now();
    if (running.current || now - last.current < ACTION_DEBOUNCE_MS) return;
    last.current = now;
    running.current = true;
    setPending(id);
    void action().finally(() => {
      running.current = false;
      setPending(null);
    });
  }, []);
  return { pending, run };
}
