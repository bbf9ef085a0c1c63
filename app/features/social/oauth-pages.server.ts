import { data, redirect, type RouterContextProvider } from 'react-router';
import { MESSAGES } from '#common/i18n/resources.ts';
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale } from '#common/locales.ts';
import { isSocialPlatform, OAUTH_BROWSER_COOKIE, OAUTH_BROWSER_COOKIE_SECONDS } from '#common/social-platforms.ts';
import { TOKEN_COOKIE } from '#common/constants.ts';
import { serviceRefusal } from '../../lib/route-errors.ts';
import { appContext } from '../../context.ts';
import { i18nFor } from '../../i18n/i18n.ts';
import { readCookie, serializeCookie } from '../../lib/cookies.ts';
import { decodeTokenCookie } from '../accounts/session-token.ts';
import type { OAuthMessageData } from './oauth-popup.ts';

/** The pop-up pages are never stored, send no referrer (the callback's URL holds the code) and keep their opener (decision 063). */
export const POPUP_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'unsafe-none',
};

/** What a pop-up page shows while it works or when it cannot go on. */
export interface PopupPageData {
  locale: Locale;
  platformName: string;
  /** The answer to hand to the opening page, once the provider has answered. */
  answer: OAuthMessageData | null;
  /** Why the page cannot go on, in the visitor's language. */
  failure: string | null;
  texts: { connecting: string; returning: string; done: string; close: string };
}

/** The pop-up pages have no locale in their path: the visitor's chosen locale, else their browser's. */
function popupLocale(request: Request, preferred: Locale | null): Locale {
  const chosen = readCookie(LOCALE_COOKIE, request.headers.get('cookie'));
  return isLocale(chosen) ? chosen : (preferred ?? DEFAULT_LOCALE);
}

function pageData(locale: Locale, platform: string, answer: OAuthMessageData | null, failure: string | null): PopupPageData {
  const t = i18nFor(locale, MESSAGES[locale]).namespace('social');
  const platformName = isSocialPlatform(platform) ? t(`platforms.${platform}`) : platform;
  return {
    locale,
    platformName,
    answer,
    failure,
    texts: { connecting: t('popup.connecting', { platform: platformName }), returning: t('popup.returning'), done: t('popup.done'), close: t('popup.close') },
  };
}

function failureText(locale: Locale, error: unknown): string {
  const t = i18nFor(locale, MESSAGES[locale]).t;
  const refusal = serviceRefusal(error);
  return refusal ? t(refusal.messageKey, refusal.values) : t('errors:generic');
}

/**
 * /oauth/{platform}/link: starts the provider's authorization for the flow the opening page named
 * and goes there. The browser gets its flow cookie (HttpOnly, SameSite=Strict, sent only with the
 * same-origin login and link calls, never with a cross-site request) so only it can finish the flow.
 */
export async function startPopupFlow(request: Request, platform: string, context: Readonly<RouterContextProvider>) {
  const { services, site, statusOfError, request: facts } = context.get(appContext);
  const locale = popupLocale(request, facts.preferredLocale);
  const cookies = request.headers.get('cookie');
  const existing = readCookie(OAUTH_BROWSER_COOKIE, cookies);
  const browserKey = existing && /^[A-Za-z0-9_-]{32,64}$/.test(existing) ? existing : randomKey();
  try {
    const target = await services.social.startFlow(
      { platform, flowId: new URL(request.url).searchParams.get('flow'), sessionToken: decodeTokenCookie(readCookie(TOKEN_COOKIE, cookies)), browserKey },
      facts.client,
    );
    const cookie = serializeCookie(OAUTH_BROWSER_COOKIE, browserKey, {
      maxAgeDays: OAUTH_BROWSER_COOKIE_SECONDS / 86_400,
      sameSite: 'Strict',
      secure: site.secureCookies,
      httpOnly: true,
    });
    return redirect(target, { headers: { 'Set-Cookie': cookie, ...POPUP_HEADERS } });
  } catch (error) {
    const refusal = serviceRefusal(error);
    if (!refusal) console.error('social sign-in could not start', error);
    return data(pageData(locale, platform, null, failureText(locale, error)), { status: statusOfError(error), headers: POPUP_HEADERS });
  }
}

/** /oauth/{platform}/callback: the provider's answer with the flow id of the page that started the flow, for the page to hand over. */
export async function receivePopupAnswer(request: Request, platform: string, context: Readonly<RouterContextProvider>) {
  const { services, request: facts } = context.get(appContext);
  const locale = popupLocale(request, facts.preferredLocale);
  const fields = new URL(request.url).searchParams;
  const field = (name: string) => {
    const value = fields.get(name);
    return value !== null && value.length <= 4096 ? value : undefined;
  };
  const state = field('state') ?? null;
  const flow = isSocialPlatform(platform) ? await services.social.flowIdOf(state) : null;
  if (!flow) {
    const t = i18nFor(locale, MESSAGES[locale]).namespace('social');
    return data(pageData(locale, platform, null, t('errors.state')), { status: 400, headers: POPUP_HEADERS });
  }
  const answer: OAuthMessageData = { platform, flow, code: field('code'), state: state ?? undefined, user: field('user'), error: field('error') };
  return data(pageData(locale, platform, answer, null), { headers: POPUP_HEADERS });
}

function randomKey(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url');
}
