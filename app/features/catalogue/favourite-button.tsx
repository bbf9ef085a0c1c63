import { Heart } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { api, ApiError } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { useSession } from '../accounts/use-session.ts';

/**
 * Marks an app as a favourite for the signed-in member (guests included). The button is there
 * from the first render (no layout shift) and becomes usable once the session and the current
 * state are known.
 */
export function FavouriteButton({ appId }: { appId: number }) {
  const { t } = useTranslation('catalogue');
  const { token } = useSession();
  const key = token ? `${token}\n${appId}` : null;
  // The state belongs to one session and app: another one starts unknown again.
  const [state, setState] = useState<{ key: string; favourite: boolean } | null>(null);
  const favourite = key && state?.key === key ? state.favourite : null;
  const setFavourite = (value: boolean) => key && setState({ key, favourite: value });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    api
      .get(`/member/favourite/${appId}`, { signal: controller.signal })
      .then((response) => setState({ key, favourite: response.data.favourite }))
      .catch(() => undefined);
    return () => controller.abort();
  }, [appId, key]);

  const toggle = async () => {
    if (favourite === null || busy) return;
    const next = !favourite;
    setBusy(true);
    setFavourite(next);
    try {
      await (next ? api.put(`/member/favourite/${appId}`) : api.delete(`/member/favourite/${appId}`));
      toast.add({ title: t(next ? 'app.favouriteAdded' : 'app.favouriteRemoved'), color: 'success' });
    } catch (error) {
      setFavourite(!next);
      toast.add({ title: error instanceof ApiError ? error.message : t('library.loadFailed'), color: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const label = t(favourite ? 'app.unfavourite' : 'app.favourite');
  return (
    <Button
      variant="secondary"
      size="icon"
      onClick={toggle}
      disabled={favourite === null}
      // While saving, the button stays focusable: disabling it would drop a keyboard user's focus to the page.
      aria-disabled={busy || undefined}
      className="aria-disabled:opacity-50"
      aria-pressed={favourite ?? false}
      aria-label={label}
      title={label}
      data-testid="favourite-button"
    >
      <Heart className={cn('transition-colors', favourite && 'fill-red-500 text-red-500')} />
    </Button>
  );
}
