import type { OAuthPlatform } from '#common/social-platforms.ts';

/**
 * A provider people sign in with (decision 063): it sends the browser to its sign-in page and
 * turns the code it sends back into the account that signed in. The social service sees only
 * this; `OAuthProvider` implements it for the OAuth 2.0 and OpenID Connect providers.
 */
export interface IdentityProvider {
  readonly platform: OAuthPlatform;
  /** New secrets for a flow: a PKCE verifier where the provider takes one, and the ID token's nonce. */
  newSecrets(nonce: string): FlowSecrets;
  /** Where the pop-up goes to sign in; rejects when the provider cannot be reached. */
  authorizationUrl(state: string, secrets: FlowSecrets): Promise<string>;
  /**
   * The account behind an authorization code; throws ProviderRefusal when anything does not hold.
   * `answer` holds the other fields of the provider's answer to the callback (Apple's `user`).
   */
  profile(code: string, secrets: FlowSecrets, answer: { user?: string | undefined }): Promise<ProviderProfile>;
}

/** Who the provider says signed in: its stable account id, and the name and email it shares. */
export interface ProviderProfile {
  id: string;
  name: string | null;
  email: string | null;
}

/** What one flow keeps between the authorization request and the code exchange. */
export interface FlowSecrets {
  codeVerifier: string | null;
  nonce: string;
}

/** Why a provider did not confirm a sign-in: told to the person as one refusal, logged with the cause. */
export class ProviderRefusal extends Error {
  override name = 'ProviderRefusal';
}
