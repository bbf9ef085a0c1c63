/** Who is calling: the member and the token the request was authenticated with. */
export interface Caller {
  userId: number;
  tokenId: number;
}

/** Where a request comes from: the client address (as the trusted proxies report it) and its browser. */
export interface ClientFacts {
  address: string;
  userAgent: string | undefined;
}
