import { useSyncExternalStore } from 'react';

interface NetworkInformation extends EventTarget {
  saveData?: boolean;
  effectiveType?: string;
}

/** Spec section 9: no link prefetching on slow connections (2g) or with data saver on. */
export function isSlowConnection(connection: Pick<NetworkInformation, 'saveData' | 'effectiveType'> | undefined): boolean {
  return Boolean(connection && (connection.saveData || connection.effectiveType?.includes('2g')));
}

function networkInformation(): NetworkInformation | undefined {
  return (navigator as Navigator & { connection?: NetworkInformation }).connection;
}

function subscribe(listener: () => void): () => void {
  const target = networkInformation();
  target?.addEventListener('change', listener);
  return () => target?.removeEventListener('change', listener);
}

/** The `prefetch` value for navigation links; follows the connection as it changes. */
export function usePrefetch(): 'intent' | 'none' {
  return useSyncExternalStore(
    subscribe,
    () => (isSlowConnection(networkInformation()) ? 'none' : 'intent'),
    () => 'intent',
  );
}
