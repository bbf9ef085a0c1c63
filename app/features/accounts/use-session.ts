import { useMemo, useSyncExternalStore } from 'react';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import { useRootData } from '../../shell/root-data.ts';
import type { PageSession } from './page-session.ts';
import { session } from './session.ts';
import type { SessionSnapshot, SessionStatus } from './session-store.ts';

export type { UserInfo };

export interface SessionState {
  token: string | null;
  userInfo: UserInfo | null;
}

export interface SessionView extends SessionState {
  status: SessionStatus;
  /** An account is signed in: a guest or a member (spec section 6: uid present). */
  isSignedIn: boolean;
  /** A signed-in member: an account with a username and password, a social account or a passkey, not a guest. */
  isMember: boolean;
}

const UNKNOWN: PageSession = { state: 'unknown', userInfo: null };

/** The server's view of the page's session, from the root loader (undefined only on a failed root). */
export function usePageSession(): PageSession {
  return useRootData()?.session ?? UNKNOWN;
}

/**
 * The session as the interface sees it. The server render and the hydrating render use the
 * root loader's session (no token, so nothing secret is rendered); afterwards the browser's
 * session store.
 */
export function useSession(): SessionView {
  const initial = usePageSession();
  const snapshot = useSyncExternalStore(
    session.subscribe,
    () => session.snapshot(initial),
    () => serverSnapshot(initial),
  );
  return useMemo(() => viewOf(snapshot), [snapshot]);
}

/**
 * One value of the session (a flag, a string, the user info): the component renders again only
 * when that value changes, not with every step of a sign-in. A store update renders its readers
 * synchronously, which on the play page competes with the game's start (docs/performance.md).
 */
export function useSessionValue<T>(select: (view: SessionView) => T): T {
  const initial = usePageSession();
  return useSyncExternalStore(
    session.subscribe,
    () => select(viewOf(session.snapshot(initial))),
    () => select(viewOf(serverSnapshot(initial))),
  );
}

/** The server renders from the page session alone; the browser hydrates with the store's view of it. */
function serverSnapshot(initial: PageSession): SessionSnapshot {
  return typeof document === 'undefined' ? session.renderedSnapshot(initial) : session.hydrationSnapshot(initial);
}

/** Derives the signed-in flags of a snapshot. */
function viewOf(snapshot: SessionSnapshot): SessionView {
  const isSignedIn = snapshot.userInfo !== null;
  return { ...snapshot, isSignedIn, isMember: isSignedIn && !snapshot.userInfo!.isGuest };
}
