import { useEffect, useRef } from 'react';
import { useSessionValue } from '../accounts/use-session.ts';
import { api } from '../../lib/api-client.ts';

/** Records one play for the session's account (guests included) when the play page opens. */
export function usePlayRecord(appId: number): void {
  const token = useSessionValue((view) => view.token);
  const recorded = useRef<string | null>(null);
  useEffect(() => {
    const key = `${token}/${appId}`;
    if (!token || recorded.current === key) return;
    recorded.current = key;
    api.post('/member/played/', { app_id: appId }).catch(() => {
      // Not being counted must not disturb the game.
    });
  }, [token, appId]);
}
