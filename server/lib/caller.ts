/** Who is calling: the member and the token the request was authenticated with. */
export interface Caller {
  userId: number;
  tokenId: number;
}
