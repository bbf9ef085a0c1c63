// The identity area of the configuration: passkeys, the OAuth providers of social sign-in and the
// WhatsApp sender of sign-in codes.
import { z } from 'zod';
import { OAUTH_PLATFORMS, type OAuthPlatform } from '#common/social-platforms.ts';
import { OptionalText } from './env-values.ts';
import { exposure, reachableByOthers } from './network.ts';

type OAuthEnvKey = `OAUTH_${Uppercase<OAuthPlatform>}_${'CLIENT_ID' | 'CLIENT_SECRET' | 'ISSUER_URL'}`;

/**
 * OAUTH_{PROVIDER}_CLIENT_ID and _CLIENT_SECRET for each provider (Apple: a team id, key id and
 * private key instead of a secret), and _ISSUER_URL to use another OpenID Connect issuer than the
 * provider's own (a local stand-in in tests); its discovery document names the endpoints.
 */
function oauthEnvShape() {
  const shape = {} as Record<OAuthEnvKey, typeof OptionalText>;
  for (const platform of OAUTH_PLATFORMS) {
    const prefix = `OAUTH_${platform.toUpperCase()}` as `OAUTH_${Uppercase<OAuthPlatform>}`;
    shape[`${prefix}_CLIENT_ID`] = OptionalText;
    shape[`${prefix}_CLIENT_SECRET`] = OptionalText;
    shape[`${prefix}_ISSUER_URL`] = OptionalText;
  }
  return {
    ...shape,
    OAUTH_APPLE_TEAM_ID: OptionalText,
    OAUTH_APPLE_KEY_ID: OptionalText,
    /** The .p8 key's PEM text; newlines may be written as \\n. */
    OAUTH_APPLE_PRIVATE_KEY: OptionalText,
  };
}

type OAuthEnv = Record<OAuthEnvKey | 'OAUTH_APPLE_TEAM_ID' | 'OAUTH_APPLE_KEY_ID' | 'OAUTH_APPLE_PRIVATE_KEY', string | undefined>;

/** A provider is configured by all its credentials or none: a half-configured one is a mistake worth stopping for. */
function checkOAuthEnv(env: OAuthEnv, platform: OAuthPlatform, ctx: z.RefinementCtx): void {
  const prefix = `OAUTH_${platform.toUpperCase()}` as `OAUTH_${Uppercase<OAuthPlatform>}`;
  const needed: (keyof OAuthEnv)[] =
    platform === 'apple'
      ? ['OAUTH_APPLE_CLIENT_ID', 'OAUTH_APPLE_TEAM_ID', 'OAUTH_APPLE_KEY_ID', 'OAUTH_APPLE_PRIVATE_KEY']
      : [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`];
  const set = needed.filter((key) => env[key] !== undefined);
  if (set.length > 0 && set.length < needed.length) {
    ctx.addIssue({ code: 'custom', path: [needed.find((key) => env[key] === undefined)!], message: `${platform} sign-in needs ${needed.join(', ')} together` });
  }
  const issuer = env[`${prefix}_ISSUER_URL`];
  if (issuer !== undefined && !/^https?:\/\/[^\s]+$/.test(issuer))
    ctx.addIssue({ code: 'custom', path: [`${prefix}_ISSUER_URL`], message: 'must be an http(s) URL' });
}

type SenderEnv = {
  WHATSAPP_SENDER?: 'cloud' | 'development' | 'off' | undefined;
  WHATSAPP_ACCESS_TOKEN?: string | undefined;
  APP_ENV: string;
  HOST: string;
  PUBLIC_ORIGIN?: string | undefined;
  PORT: number;
};

export function whatsappSenderOf(env: SenderEnv) {
  return env.WHATSAPP_SENDER ?? (env.WHATSAPP_ACCESS_TOKEN ? 'cloud' : env.APP_ENV === 'production' || reachableByOthers(env) ? 'off' : 'development');
}

/** One OAuth provider's credentials; `issuerUrl` replaces its real endpoints with an OpenID Connect issuer's. */
export interface OAuthProviderConfig {
  clientId: string;
  /** Apple has no static secret: it is a short-lived ES256 JWT made from `apple`. */
  clientSecret: string | null;
  apple: { teamId: string; keyId: string; privateKey: string } | null;
  issuerUrl: string | null;
}

export type WhatsAppConfig =
  | { sender: 'cloud'; apiUrl: string; phoneNumberId: string; accessToken: string; template: string; templateLanguage: string }
  | { sender: 'development' }
  | { sender: 'off' };

export function oauthConfigOf(env: OAuthEnv): Partial<Record<OAuthPlatform, OAuthProviderConfig>> {
  const providers: Partial<Record<OAuthPlatform, OAuthProviderConfig>> = {};
  for (const platform of OAUTH_PLATFORMS) {
    const prefix = `OAUTH_${platform.toUpperCase()}` as `OAUTH_${Uppercase<OAuthPlatform>}`;
    const clientId = env[`${prefix}_CLIENT_ID`];
    if (!clientId) continue;
    const apple =
      platform === 'apple'
        ? { teamId: env.OAUTH_APPLE_TEAM_ID!, keyId: env.OAUTH_APPLE_KEY_ID!, privateKey: env.OAUTH_APPLE_PRIVATE_KEY!.replaceAll('\\n', '\n') }
        : null;
    providers[platform] = { clientId, clientSecret: apple ? null : env[`${prefix}_CLIENT_SECRET`]!, apple, issuerUrl: env[`${prefix}_ISSUER_URL`] ?? null };
  }
  return providers;
}

/** The variables of this area. */
export const identityEnvShape = {
  /** Passkeys: the relying party id (a registrable domain of the site); default PUBLIC_ORIGIN's host name. */
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]+$/, 'must be a host name such as example.com')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Passkeys: the origins ceremonies may come from, comma-separated; default PUBLIC_ORIGIN. */
  WEBAUTHN_ORIGINS: z
    .string()
    .optional()
    .transform((value) =>
      value
        ? value
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean)
        : [],
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ }))),
  ...oauthEnvShape(),
  /** WhatsApp sign-in codes: sent through the Cloud API, written to the log and the development inbox, or not offered. */
  WHATSAPP_SENDER: z
    .enum(['cloud', 'development', 'off'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  WHATSAPP_API_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v21.0'),
  WHATSAPP_PHONE_NUMBER_ID: OptionalText,
  WHATSAPP_ACCESS_TOKEN: OptionalText,
  /** An approved authentication template with a copy-code button; its body takes the code as {{1}}. */
  WHATSAPP_TEMPLATE: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name: lower-case letters, digits and _')
    .default('sign_in_code'),
  WHATSAPP_TEMPLATE_LANGUAGE: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a template language code such as en or zh_CN')
    .default('en'),
};

type WhatsAppEnv = SenderEnv & {
  WHATSAPP_API_URL: string;
  WHATSAPP_PHONE_NUMBER_ID?: string | undefined;
  WHATSAPP_TEMPLATE: string;
  WHATSAPP_TEMPLATE_LANGUAGE: string;
};

/** The checks across this area's variables: whole OAuth providers, and a code sender that may run here. */
export function checkIdentityEnv(env: OAuthEnv & WhatsAppEnv, ctx: z.RefinementCtx): void {
  for (const platform of OAUTH_PLATFORMS) checkOAuthEnv(env, platform, ctx);
  const sender = whatsappSenderOf(env);
  if (sender === 'cloud' && (!env.WHATSAPP_PHONE_NUMBER_ID || !env.WHATSAPP_ACCESS_TOKEN)) {
    ctx.addIssue({ code: 'custom', path: ['WHATSAPP_SENDER'], message: 'cloud needs WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_ACCESS_TOKEN' });
  }
  if (sender === 'development' && env.APP_ENV === 'production') {
    ctx.addIssue({
      code: 'custom',
      path: ['WHATSAPP_SENDER'],
      message: 'the development sender shows codes to anyone who can read the log; it is refused in production',
    });
  }
  if (sender === 'development' && env.APP_ENV !== 'production' && reachableByOthers(env)) {
    ctx.addIssue({
      code: 'custom',
      path: ['WHATSAPP_SENDER'],
      message: `development shows every sign-in code at /dev/whatsapp-inbox; it is refused when the server is reachable by others (${exposure(env)}): use cloud or off`,
    });
  }
}

/** The passkeys' relying party and accepted origins: by default the public origin's. */
export function webauthnConfigOf(
  env: { WEBAUTHN_RP_ID?: string | undefined; WEBAUTHN_ORIGINS: string[] },
  origin: URL,
  productName: string,
): { rpId: string; rpName: string; origins: string[] } {
  return {
    rpId: env.WEBAUTHN_RP_ID ?? origin.hostname,
    rpName: productName,
    origins: env.WEBAUTHN_ORIGINS.length > 0 ? env.WEBAUTHN_ORIGINS.map((o) => new URL(o).origin) : [origin.origin],
  };
}

export function whatsappConfigOf(env: WhatsAppEnv): WhatsAppConfig {
  const sender = whatsappSenderOf(env);
  if (sender !== 'cloud') return { sender };
  return {
    sender,
    apiUrl: env.WHATSAPP_API_URL.replace(/\/+$/, ''),
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID!,
    accessToken: env.WHATSAPP_ACCESS_TOKEN!,
    template: env.WHATSAPP_TEMPLATE,
    templateLanguage: env.WHATSAPP_TEMPLATE_LANGUAGE,
  };
}
