import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { call } from './accounts.ts';
import { catalogueSamples } from './site.ts';

/**
 * Every kind of page the portal serves (app/routes.ts, spec section 2), with the paths that stand
 * for it, for the checks that walk them all: axe-core in the browser (tests/e2e/accessibility) and
 * the Nu Html Checker over the server's HTML (tests/pages/html-validity.spec.ts). Decision 073.
 */
export interface PageType {
  name: string;
  /** Paths without a locale prefix; {app}, {category} and {checkout} are filled by `fillPath`. */
  paths: string[];
  /** Pages for members (decision 026): opened with a member's session. */
  member?: boolean;
  /** The status the server answers, when not 200. */
  status?: number;
  /** API refusals the page asks for and shows (an unknown reset link): allowed in the browser's console. */
  refusals?: string[];
  /** Pages outside the locale routes (the sign-in pop-up): checked once, not per locale. */
  unlocalised?: boolean;
}

export const PAGE_TYPES: PageType[] = [
  { name: 'home', paths: ['/'] },
  { name: 'categories', paths: ['/categories'] },
  { name: 'category', paths: ['/categories/{category}'] },
  { name: 'app detail', paths: ['/app/{app}'] },
  { name: 'play', paths: ['/play/{app}'] },
  { name: 'search', paths: ['/search?q=solitaire', '/search?q=zzzz-nothing'] },
  { name: 'article list', paths: ['/article/news'] },
  { name: 'article column', paths: ['/article/news/esports'] },
  { name: 'article', paths: ['/article/news/1001', '/article/post/1001'] },
  { name: 'static pages', paths: ['/about', '/terms', '/cookie-policy', '/privacy-policy'] },
  { name: 'how to delete an account', paths: ['/account-deletion'] },
  { name: 'static page at /page/<slug>', paths: ['/page/developers'] },
  { name: 'settings and diagnostics', paths: ['/settings', '/test'] },
  { name: 'login', paths: ['/login'] },
  { name: 'password recovery', paths: ['/login/forgot', '/login/reset?key=unknown', '/login/not-me?key=unknown'], refusals: ['status of 422'] },
  { name: 'not found', paths: ['/no-such-page'], status: 404 },
  { name: 'my area', paths: ['/user'], member: true },
  {
    name: 'profile',
    paths: [
      '/user/profile',
      '/user/profile/nickname',
      '/user/profile/avatar',
      '/user/profile/password',
      '/user/profile/data',
      '/user/profile/two-factor',
      '/user/profile/delete',
    ],
    member: true,
  },
  {
    name: 'profile sign-in methods',
    paths: ['/user/profile/email', '/user/profile/phone', '/user/profile/social', '/user/profile/passkey', '/user/profile/sessions'],
    member: true,
  },
  { name: 'sandbox checkout', paths: ['/payment/sandbox?token={checkout}'], member: true },
  { name: 'sign-in pop-up', paths: ['/oauth/google/callback?error=access_denied'], status: 400, unlocalised: true },
];

/** The two interface locales as their paths carry them (common/locales.ts: English has no prefix). */
export const LOCALE_PREFIXES = [
  { locale: 'en', prefix: '' },
  { locale: 'zh-CN', prefix: '/zh-CN' },
] as const;

/** What the paths' placeholders stand for: demo catalogue entries and a member's pending order. */
export interface PathSamples {
  app: string;
  category: string;
  /** The sandbox checkout token of a pending order of the member's (made on first use). */
  checkout: () => Promise<string>;
}

/** Samples from the demo data; `token` is the member the checkout's order belongs to. */
export async function pathSamples(request: APIRequestContext, token: () => Promise<string>): Promise<PathSamples> {
  const { app, category } = await catalogueSamples(request);
  let checkout: string | null = null;
  return {
    app,
    category,
    checkout: async () => (checkout ??= await sandboxCheckoutToken(request, await token())),
  };
}

/** A path in a locale with its placeholders filled. */
export async function fillPath(path: string, prefix: string, samples: PathSamples): Promise<string> {
  let filled = path.replace('{app}', samples.app).replace('{category}', samples.category);
  if (filled.includes('{checkout}')) filled = filled.replace('{checkout}', await samples.checkout());
  return filled === '/' ? prefix || '/' : prefix + filled;
}

/** Orders Solitaire's gold card backs and opens the built-in sandbox checkout: its token. */
async function sandboxCheckoutToken(request: APIRequestContext, token: string): Promise<string> {
  const app = await call<{ id: number }>(request, 'GET', '/app/info/?slug=solitaire');
  const order = await call<{ id: string }>(request, 'POST', `/game/pay/${app.data.id}`, {
    token,
    body: { sku: 'solitaire-gold-backs', idempotencyKey: randomBytes(12).toString('base64url') },
  });
  const checkout = await call<{ url: string; provider: string }>(request, 'POST', '/payment/xsolla/create/', { token, body: { order_id: order.data.id } });
  if (checkout.data?.provider !== 'sandbox') throw new Error(`no sandbox checkout: ${checkout.status} ${checkout.message}`);
  return new URL(checkout.data.url, 'http://localhost').searchParams.get('token')!;
}
