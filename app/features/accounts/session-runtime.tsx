import { useEffect, useRef } from 'react';
import { useMatches, useNavigate, useRevalidator } from 'react-router';
import { session } from './session.ts';
import { tokenFromUrl, urlWithoutToken } from './session-token.ts';
import { usePageSession, useSession } from './use-session.ts';

/** The route whose middleware admits members only (decision 026). */
const MEMBER_ROUTE_ID = 'routes/user-profile';
/** The layout of the sign-in pop-up pages (app/routes.ts). */
const POPUP_LAYOUT_ID = 'oauth-layout';

/**
 * Starts the browser's session once the page runs, and keeps member-only pages honest: when
 * the session settles on another account or state (a sign-in, a sign-out in another tab),
 * their loaders run again and the auth middleware decides whether the visitor may stay.
 */
export function SessionRuntime() {
  const initial = usePageSession();
  const { token, userInfo } = useSession();
  const matches = useMatches();
  const onMemberPage = matches.some((match) => match.id === MEMBER_ROUTE_ID);
  const inPopup = matches.some((match) => match.id === POPUP_LAYOUT_ID);
  const { revalidate } = useRevalidator();

  const navigate = useNavigate();

  useEffect(() => {
    // A sign-in pop-up only hands the provider's answer to the page that opened it, whose session
    // it is. Its own user-info call would race the rotation that answer leads to, and a refusal
    // there would clear the cookie under the page that is about to store the new token (decision 027).
    if (inPopup) return;
    // The server removes a token from a page's address before the page exists (decision 050); a
    // page that still has one came another way (a copy an older service worker kept), so it does
    // what the server would: the address loses the token, and the token is only offered.
    const url = new URL(window.location.href);
    const urlToken = tokenFromUrl(url);
    if (urlToken) void navigate(urlWithoutToken(url), { replace: true, preventScrollReset: true });
    // In a task of its own: a first visit's guest sign-in changes the session at once, and every
    // part that shows it renders again; not inside the task that ends hydration (docs/performance.md).
    const starting = setTimeout(() => session.start(initial, urlToken));
    return () => clearTimeout(starting);
  }, [initial, navigate, inPopup]);

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
