import { useEffect, useState } from 'react';
import type { Workspaces } from '#common/api/accounts.schema.ts';
import { api } from '../../lib/api-client.ts';
import { useSessionValue } from './use-session.ts';

/** The last answer per member: a menu opened again shows its entries at once, then checks them. */
const known = new Map<number, Workspaces>();

/**
 * The member's Studio and Console (decision 120), asked each time a menu that links to them opens:
 * a studio profile made a minute ago, or an operator role granted, shows the next time. Null for
 * a guest or a visitor, and until the first answer.
 */
export function useWorkspaces(): Workspaces | null {
  const uid = useSessionValue((view) => (view.isMember ? (view.userInfo?.uid ?? null) : null));
  const [answer, setAnswer] = useState<{ uid: number; workspaces: Workspaces } | null>(null);
  useEffect(() => {
    if (uid === null) return;
    let current = true;
    api.get('/member/workspaces/').then(
      ({ data }) => {
        known.set(uid, data);
        if (current) setAnswer({ uid, workspaces: data });
      },
      // Without an answer the menu shows what it knew: the entries are shortcuts, not the only way in.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [uid]);
  if (uid === null) return null;
  return answer?.uid === uid ? answer.workspaces : (known.get(uid) ?? null);
}
