import type { UserInfo } from '#common/api/accounts.schema.ts';
import { TOKEN_COOKIE } from '#common/constants.ts';

/**
 * What the browser last knew of its account, on `<html>` before anything paints: the parts of a
 * page that depend on it (the side menu's profile group) take their place at once on a page shared
 * by everyone (decision 066), rather than moving the page when the session is known. `data-account`
 * is set for a member only: `member`; `member signout` when a social account or passkey is bound
 * (the header offers sign-out); `member signout passkey` with a passkey. Kept with the last user
 * info seen for the token in the cookie (session.ts); nothing secret: it only picks what is shown.
 */
export const ACCOUNT_HINT_ATTRIBUTE = 'data-account';

/** localStorage key of the last user info seen, with the id of the token it belongs to (session.ts keeps it). */
export const KNOWN_USER_KEY = 'playport:user';

type HintedUserInfo = Pick<UserInfo, 'isGuest' | 'webauthn' | 'social_providers'>;

/** The hint's words for an account's user info; empty for a guest or no account. Self-contained: the head script carries its source. */
export function accountHintOf(userInfo: HintedUserInfo | null): string {
  if (!userInfo || userInfo.isGuest) return '';
  if (userInfo.webauthn) return 'member signout passkey';
  return userInfo.social_providers.length > 0 ? 'member signout' : 'member';
}

/** Sets the hint on this page's `<html>` (after a sign-in, a sign-out, a passkey added); the browser's session store calls it. */
export function showAccountHint(userInfo: HintedUserInfo | null): void {
  const hint = accountHintOf(userInfo);
  if (hint) document.documentElement.setAttribute(ACCOUNT_HINT_ATTRIBUTE, hint);
  else document.documentElement.removeAttribute(ACCOUNT_HINT_ATTRIBUTE);
}

/**
 * Runs in `<head>` before the body is parsed: reads the user info kept for the token cookie's id
 * and sets the hint, by `accountHintOf` itself (its source is written into the script). A kept
 * user info of another token sets none. A function: the browser's bundle, which never calls it, leaves it out.
 */
export const accountHintScript = (): string =>
  `(function(){try{var k=JSON.parse(localStorage.getItem(${JSON.stringify(KNOWN_USER_KEY)})||'null'),m=document.cookie.match(/(?:^|; )${TOKEN_COOKIE}=([^;]*)/),u=k&&k.userInfo;if(!u||!m||decodeURIComponent(m[1]).split('|')[0]!==k.tokenId)return;var h=(${accountHintOf.toString()})(u);if(h)document.documentElement.setAttribute(${JSON.stringify(ACCOUNT_HINT_ATTRIBUTE)},h)}catch(e){}})()`;
