import { useEffect, useRef } from 'react';
import { useMatches, useRevalidator } from 'react-router';
import { session } from './session.ts';
import { usePageSession, useSession } from './use-session.ts';

/** The route whose middleware admits members only (decision 026). */
const MEMBER_ROUTE_ID = 'routes/user-profile';

/**
 * Starts the browser's session once the page runs, and keeps member-only pages honest: when
 * the session settles on another account or state (a sign-in, a sign-out in another tab),
 * their loaders run again and the auth middleware decides whether the visitor may stay.
 */
export function SessionRuntime() {
  const initial = usePageSession();
  const { token, userInfo } = useSession();
  const onMemberPage = useMatches().some((match) => match.id === MEMBER_ROUTE_ID);
  const { revalidate } = useRevalidator();

  useEffect(() => {
    session.start(initial);
  }, [initial]);

  // A token whose user info is still loading is not a settled state.
  const settled = token && !userInfo ? null : `${userInfo?.uid ?? ''}:${userInfo?.isGuest ?? ''}`;
  const previous = useRef(settled);
  useEffect(() => {
    if (settled === null || settled === previous.current) return;
    previous.current = settled;
    if (onMemberPage) void revalidate();
  }, [settled, onMemberPage, revalidate]);

  return null;
}
