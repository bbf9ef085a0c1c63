import { RouterContextProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Session, UserInfo } from '#common/api/accounts.schema.ts';
import { type AppLoadContext, appContext } from '../../context.ts';
import { captureCampaignTags } from '../../middleware/campaign-tags.ts';
import { sessionRestore } from '../../middleware/session-restore.ts';
import { pageSessionContext, pageSessionOf } from './page-session.ts';
import { isLoginPath, loginPathFor, requireMember } from './require-member.ts';

const member: UserInfo = { uid: 5, nickname: 'Ann', avatar: null, social_providers: [], webauthn: false, isGuest: false };
const guest: UserInfo = { ...member, uid: 6, isGuest: true };
const TOKENS: Record<string, UserInfo> = { [`5|${'m'.repeat(48)}`]: member, [`6|${'g'.repeat(48)}`]: guest };

/** The router context of one request, with an accounts service that knows two tokens and counts lookups. */
function contextWith(lookups: string[] = [], publicOrigin = 'https://p.example') {
  const accounts = {
    async userInfoForToken(token: string | null | undefined): Promise<Session | null> {
      lookups.push(String(token));
      const value = decodeURIComponent(token ?? '');
      return TOKENS[value] ? { token: value, userInfo: TOKENS[value]! } : null;
    },
  };
  const context = new RouterContextProvider();
  context.set(appContext, { services: { accounts }, site: { publicOrigin } } as unknown as AppLoadContext);
  return context;
}

type Args = Parameters<typeof sessionRestore>[0];
function args(href: string, context: RouterContextProvider, headers: Record<string, string> = {}): Args {
  const url = new URL(href);
  return { request: new Request(url, { headers }), url, context, params: {}, pattern: '' } as unknown as Args;
}

async function thrown(run: () => unknown): Promise<Response> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

const page = { accept: 'text/html', 'sec-fetch-dest': 'document' };
const next = async () => new Response('page');

describe('session restore on the server', () => {
  it('a page load with a token the server knows offers it to the page and redirects without it; the session cookie is never written', async () => {
    const token = `5|${'m'.repeat(48)}`;
    const lookups: string[] = [];
    const response = await thrown(() =>
      sessionRestore(args(`https://p.example/zh-CN/user?a=1&token=${encodeURIComponent(token)}`, contextWith(lookups), page), next),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/zh-CN/user?a=1');
    expect(lookups).toEqual([token]);
    expect(response.headers.getSetCookie()).toEqual([
      'session_offer=5%7Cmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm; Path=/; Max-Age=120; SameSite=Strict; Secure',
    ]);
  });

  it('a navigation passed on by the service worker (destination "empty", mode "navigate") is a page load too: the token is removed and offered', async () => {
    const token = `6|${'g'.repeat(48)}`;
    const fromWorker = { accept: 'text/html', 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'navigate' };
    const response = await thrown(() => sessionRestore(args(`https://p.example/user?token=${encodeURIComponent(token)}`, contextWith(), fromWorker), next));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/user');
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^session_offer=6%7Cg{48}; /)]);
    expect(response.headers.getSetCookie().join()).not.toMatch(/(^|, )token=/);
  });

  it('a token the server does not know is dropped: removed from the address, offered to nobody', async () => {
    const token = `9|${'z'.repeat(48)}`;
    const response = await thrown(() => sessionRestore(args(`https://p.example/?token=${encodeURIComponent(token)}`, contextWith(), page), next));
    expect(response.headers.get('location')).toBe('/');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('cookies carry Secure by the public origin, not by the request: behind a proxy that ends TLS the request is plain http', async () => {
    const token = `5|${'m'.repeat(48)}`;
    const behindProxy = await thrown(() =>
      sessionRestore(args(`http://internal:3000/?token=${encodeURIComponent(token)}`, contextWith([], 'https://p.example'), page), next),
    );
    expect(behindProxy.headers.getSetCookie()[0]).toMatch(/; Secure$/);
    const plainSite = await thrown(() =>
      sessionRestore(args(`http://portal.test/?token=${encodeURIComponent(token)}`, contextWith([], 'http://portal.test'), page), next),
    );
    expect(plainSite.headers.getSetCookie()[0]).not.toContain('Secure');
    const tags = await captureCampaignTags(args('http://internal:3000/?utm_source=mail', contextWith([], 'https://p.example')), next);
    expect((tags as Response).headers.getSetCookie()).toEqual([expect.stringMatching(/^utm_source=mail; .*; Secure$/)]);
  });

  it('a hostile path with a token is sent home, never to another host', async () => {
    const token = `5|${'m'.repeat(48)}`;
    for (const path of ['//evil.example/', '/%5Cevil.example/', '/.//evil.example/']) {
      const response = await thrown(() => sessionRestore(args(`https://p.example${path}?token=${encodeURIComponent(token)}`, contextWith(), page), next));
      const location = response.headers.get('location')!;
      expect(new URL(location, 'https://p.example/').origin, path).toBe('https://p.example');
    }
  });

  it('a page shared by everyone never looks the session up, whatever the cookie (decision 066)', async () => {
    const lookups: string[] = [];
    for (const path of ['/', '/zh-CN/app/2048', '/article/news/1001', '/search', '/settings']) {
      const withToken = contextWith(lookups);
      await sessionRestore(args(`https://p.example${path}`, withToken, { cookie: `token=${encodeURIComponent(`6|${'g'.repeat(48)}`)}` }), next);
      expect(await pageSessionOf(withToken), path).toEqual({ state: 'unknown', userInfo: null });
      const without = contextWith(lookups);
      await sessionRestore(args(`https://p.example${path}`, without), next);
      expect(await pageSessionOf(without), path).toEqual({ state: 'none', userInfo: null });
    }
    expect(lookups).toEqual([]);
  });

  it('looks the cookie up once, only when asked; no cookie is no lookup', async () => {
    const lookups: string[] = [];
    const context = contextWith(lookups);
    await sessionRestore(args('https://p.example/user', context, { cookie: `x=1; token=${encodeURIComponent(`6|${'g'.repeat(48)}`)}` }), next);
    expect(lookups).toEqual([]);
    expect(await pageSessionOf(context)).toEqual({ state: 'valid', userInfo: guest });
    expect(await context.get(pageSessionContext)()).toEqual({ state: 'valid', userInfo: guest });
    expect(lookups).toHaveLength(1);

    const none = contextWith(lookups);
    await sessionRestore(args('https://p.example/user', none), next);
    expect(await pageSessionOf(none)).toEqual({ state: 'none', userInfo: null });
    const unknownToken = contextWith();
    await sessionRestore(args('https://p.example/user', unknownToken, { cookie: 'token=9%7Cnope' }), next);
    expect(await pageSessionOf(unknownToken)).toEqual({ state: 'invalid', userInfo: null });
  });
});

/** A profile page request through both middleware, as the router runs them. */
async function gate(cookie: string | null) {
  const context = contextWith();
  const request = args('https://p.example/zh-CN/user/profile/avatar?x=1', context, cookie ? { cookie } : {});
  await sessionRestore(request, next);
  return requireMember(request, next);
}

describe('the auth middleware', () => {
  it('lets a member through', async () => {
    expect(await (await gate(`token=${encodeURIComponent(`5|${'m'.repeat(48)}`)}`))!.text()).toBe('page');
  });

  it('sends a guest and a visitor without a session to /login with the way back', async () => {
    for (const cookie of [`token=${encodeURIComponent(`6|${'g'.repeat(48)}`)}`, null, 'token=9%7Cnope']) {
      const response = await thrown(() => gate(cookie));
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/zh-CN/login?redirect=%2Fzh-CN%2Fuser%2Fprofile%2Favatar%3Fx%3D1');
    }
  });

  it('its /login is known as such in every locale, so the browser can tell a refusal from another redirect', () => {
    for (const address of ['https://p.example/user/profile', 'https://p.example/zh-CN/user/profile/social', 'https://p.example/en/user']) {
      expect(isLoginPath(new URL(loginPathFor(new URL(address)), address).pathname)).toBe(true);
    }
    for (const path of ['/user/login', '/fr/login', '/login/more', '/loginx', '/']) expect(isLoginPath(path)).toBe(false);
  });
});
