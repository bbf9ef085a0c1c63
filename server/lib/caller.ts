/** Who is calling: the member and the token the request was authenticated with. */
export interface Caller {
  userId: number;
  tokenId: number;
  /**
   * Set when a developer's Studio key authenticated the call (decision 102), only on the calls
   * that accept one; `tokenId` is then 0, no session's.
   */
  studioKeyId?: number;
}

/** Where a request comes from: the client address (as the trusted proxies report it) and its browser. */
export interface ClientFacts {
  address: string;
  userAgent: string | undefined;
  /** The campaign tags the browser sends with every call (utm source, medium, campaign, term, content). */
  campaign?: Record<string, string>;
  /** Whether the visitor accepted advertising measurement (the consent cookie). */
  adConsent?: boolean;
}

/** What a token is called in the user's list of sessions: how it was made and the browser. */
export function tokenName(method: string, client: ClientFacts): string {
  return `${method} ${client.userAgent ?? ''}`.trim();
}
