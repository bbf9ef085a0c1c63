import { startTransition, useEffect, useState } from 'react';

/** Set by the first effect of the page: from then on a component starts from the browser's value. */
let hydrated = false;

/**
 * A value kept outside React (the session, a media query, the connection, a browser capability)
 * in a component that the server renders too. The server render and hydration use `serverValue`,
 * so both render the same; then the browser's value, and each change after, reach the component
 * as a transition, which React renders in slices between the page's other work.
 *
 * React's `useSyncExternalStore` re-renders synchronously instead: each such hook whose browser
 * value differs from the server's re-rendered its component inside the task that ends hydration,
 * and on a slow phone that task blocked the page (docs/performance.md, "Hydration without a
 * synchronous re-render"). `subscribe` and `getSnapshot` must keep their identity between renders
 * (module functions, or `useCallback`); a new `getSnapshot` is read at once.
 */
export function useBrowserStore<T>(subscribe: (onChange: () => void) => () => void, getSnapshot: () => T, serverValue: T): T {
  const [value, setValue] = useState<T>(() => (hydrated ? getSnapshot() : serverValue));
  useEffect(() => {
    hydrated = true;
    const update = () => {
      const next = getSnapshot();
      startTransition(() => setValue(() => next));
    };
    update();
    return subscribe(update);
  }, [subscribe, getSnapshot]);
  return value;
}

/** For a value that never changes while the page lives. */
export const subscribeNever = () => () => {};
