/** The signed-in user's info (spec section 3). */
export interface UserInfo {
  uid: number;
  nickname: string | null;
  avatar: string | null;
  social_providers: string[];
  webauthn: boolean;
}

export interface SessionState {
  token: string | null;
  userInfo: UserInfo | null;
}

/**
 * The session as the interface sees it. This version always reports a visitor without a
 * session; the accounts feature replaces it with the real session store.
 */
export function useSession(): SessionState & { isSignedIn: boolean; isMember: boolean } {
  return { token: null, userInfo: null, isSignedIn: false, isMember: false };
}
