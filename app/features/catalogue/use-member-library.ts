import { useEffect, useState } from 'react';
import type { FavouriteList, PlayedList } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import { api } from '../../lib/api-client.ts';
import { useSession } from '../accounts/use-session.ts';

type Lists = { played: PlayedList; favourite: FavouriteList };
export type LibraryItem<K extends keyof Lists> = Lists[K]['items'][number];

/** How many games each of My area's lists shows. */
export const MY_AREA_LIST_LIMIT = 24;

/**
 * Asks for My area's lists exactly as My area does, so that the service worker keeps them for
 * offline use (decision 117); what comes back is not used here. Needs a session.
 */
export async function requestMyAreaLists(locale: Locale): Promise<void> {
  await Promise.all((['played', 'favourite'] as const).map((list) => api.get(`/member/${list}/`, { query: { limit: MY_AREA_LIST_LIMIT, locale } })));
}

export interface LibraryState<T> {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  items: T[];
}

/**
 * One of the member's lists (recently played or favourites), loaded in the browser once the
 * session has a token. Idle without a session; every visitor gets a guest session, so this
 * usually loads.
 */
export function useMemberLibrary<K extends keyof Lists>(list: K, locale: Locale, limit = 12): LibraryState<LibraryItem<K>> {
  const { token } = useSession();
  const key = token ? `${token}\n${list}\n${locale}\n${limit}` : null;
  const [loaded, setLoaded] = useState<{ key: string; status: 'ready' | 'failed'; items: LibraryItem<K>[] } | null>(null);
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    api
      .get(`/member/${list as keyof Lists}/`, { query: { limit, locale }, signal: controller.signal })
      .then((response) => setLoaded({ key, status: 'ready', items: response.data.items as LibraryItem<K>[] }))
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ key, status: 'failed', items: [] });
      });
    return () => controller.abort();
  }, [key, list, locale, limit]);
  if (!key) return { status: 'idle', items: [] };
  if (loaded?.key !== key) return { status: 'loading', items: [] };
  return { status: loaded.status, items: loaded.items };
}
