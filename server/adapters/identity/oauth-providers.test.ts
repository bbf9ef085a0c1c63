import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthPlatform } from '#common/social-platforms.ts';
import { type IdentityProviders, STAND_IN_CLIENT, startIdentityProviders } from '#server/testing/identity-providers.ts';
import { ProviderRefusal } from './identity-provider.ts';
import { OAuthProvider } from './oauth-providers.ts';

/*
 * The OAuth adapter against the loopback identity providers (server/testing/identity-providers.ts):
 * discovery, the code exchange, ID tokens checked (audience, nonce), each provider's profile call,
 * and Apple's ways (the ES256 client secret, the name only in its form_post answer's `user`).
 */

const ORIGIN = 'http://127.0.0.1:3999';
const appleKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** What a browser signed in at the stand-in as `who` brings back: the code, and Apple's `user` field. */
async function signIn(url: string, who: Record<string, string>): Promise<{ code: string; user: string | undefined }> {
  const cookie = Object.entries(who)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('; ');
  let location = url;
  for (let hop = 0; hop < 4; hop++) {
    const response = await fetch(location, { redirect: 'manual', headers: { cookie } });
    const next = new URL(response.headers.get('location') ?? '', location);
    const code = next.searchParams.get('code');
    if (code) return { code, user: next.searchParams.get('user') ?? undefined };
    location = next.href;
  }
  throw new Error('the stand-in sent no code');
}

describe('OAuth providers', () => {
  let providers: IdentityProviders;
  beforeAll(async () => {
    providers = await startIdentityProviders({ applePrivateKey: appleKey });
  });
  afterAll(() => providers?.stop());

  const provider = (platform: OAuthPlatform, clientId: string = STAND_IN_CLIENT.clientId) =>
    new OAuthProvider(
      platform,
      platform === 'apple'
        ? { clientId, clientSecret: null, apple: { teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: appleKey }, issuerUrl: providers.issuers.apple }
        : { clientId, clientSecret: STAND_IN_CLIENT.clientSecret, apple: null, issuerUrl: providers.issuers[platform] },
      ORIGIN,
    );

  it('signs in with Google: PKCE and a nonce on the way out, the ID token checked on the way back', async () => {
    const google = provider('google');
    const secrets = google.newSecrets('nonce-of-this-flow');
    const url = new URL(await google.authorizationUrl('state-1', secrets));
    expect(url.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/oauth/google/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBe('nonce-of-this-flow');
    const { code } = await signIn(url.href, { stand_in_user: 'g-ann', stand_in_name: 'Ann Lee', stand_in_email: 'ann@example.com' });
    expect(await google.profile(code, secrets, {})).toEqual({ id: 'g-ann', name: 'Ann Lee', email: 'ann@example.com' });
  });

  it('refuses an ID token for another client, or with another nonce', async () => {
    const google = provider('google');
    const secrets = google.newSecrets('nonce-a');
    const forged = await signIn(await google.authorizationUrl('state-2', secrets), { stand_in_user: 'g-bob', stand_in_audience: 'wrong' });
    await expect(google.profile(forged.code, secrets, {})).rejects.toThrow(ProviderRefusal);
    const other = await signIn(await google.authorizationUrl('state-3', secrets), { stand_in_user: 'g-bob' });
    await expect(google.profile(other.code, { ...secrets, nonce: 'nonce-b' }, {})).rejects.toThrow(/another nonce/);
  });

  it('reads Discord’s, Facebook’s and X’s profile calls in their own shapes', async () => {
    for (const [platform, expected] of [
      ['discord', { id: 'd-cy', name: 'Cy Moss', email: 'cy@example.com' }],
      ['facebook', { id: 'f-cy', name: 'Cy Moss', email: 'cy@example.com' }],
      ['x', { id: 'x-cy', name: 'Cy Moss', email: null }],
    ] as const) {
      const oauth = provider(platform);
      const secrets = oauth.newSecrets('unused');
      const { code } = await signIn(await oauth.authorizationUrl(`state-${platform}`, secrets), {
        stand_in_user: expected.id,
        stand_in_name: 'Cy Moss',
        stand_in_email: 'cy@example.com',
      });
      expect(await oauth.profile(code, secrets, {}), platform).toEqual(expected);
    }
  });

  it('signs in with Apple: form_post, a signed client secret, and the name from the first answer’s user field', async () => {
    const apple = provider('apple');
    const secrets = apple.newSecrets('apple-nonce');
    const url = new URL(await apple.authorizationUrl('state-apple', secrets));
    expect(url.searchParams.get('response_mode')).toBe('form_post');
    expect(secrets.codeVerifier).toBeNull();
    const first = await signIn(url.href, { stand_in_user: 'a-eve', stand_in_name: 'Eve Park', stand_in_email: 'eve@privaterelay.example' });
    expect(first.user).toBeDefined();
    expect(await apple.profile(first.code, secrets, { user: first.user })).toEqual({ id: 'a-eve', name: 'Eve Park', email: 'eve@privaterelay.example' });
    // Apple names the person once; later sign-ins carry no user field and no name.
    const again = await signIn(url.href, { stand_in_user: 'a-eve', stand_in_name: 'Eve Park' });
    expect(again.user).toBeUndefined();
    expect(await apple.profile(again.code, secrets, { user: again.user })).toMatchObject({ id: 'a-eve', name: null });
  });

  it('refuses a code the provider does not know, and an issuer that does not answer', async () => {
    const discord = provider('discord');
    await expect(discord.profile('no-such-code', discord.newSecrets('n'), {})).rejects.toThrow(ProviderRefusal);
    const away = new OAuthProvider('google', { clientId: 'c', clientSecret: 's', apple: null, issuerUrl: 'http://127.0.0.1:1' }, ORIGIN);
    await expect(away.authorizationUrl('s', away.newSecrets('n'))).rejects.toThrow(ProviderRefusal);
  });

  it('refuses an issuer whose discovery document names another issuer', async () => {
    // The same stand-in reached under another name: its document names 127.0.0.1, not localhost.
    const elsewhere = providers.issuers.google.replace('127.0.0.1', 'localhost');
    const config = { clientId: STAND_IN_CLIENT.clientId, clientSecret: STAND_IN_CLIENT.clientSecret, apple: null, issuerUrl: elsewhere };
    const mismatched = new OAuthProvider('google', config, ORIGIN);
    const refused = await mismatched.authorizationUrl('s', mismatched.newSecrets('n')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProviderRefusal);
    expect(String((refused as ProviderRefusal).cause)).toContain('names another issuer');
    // Under the name it gives itself, the same stand-in is accepted.
    const matched = new OAuthProvider('google', { ...config, issuerUrl: providers.issuers.google }, ORIGIN);
    await expect(matched.authorizationUrl('s', matched.newSecrets('n'))).resolves.toContain('/authorize?');
  });
});
