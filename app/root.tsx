import { Links, Meta, Outlet, Scripts, ScrollRestoration, type ShouldRevalidateFunction, useLocation, useMatches } from 'react-router';
import { MESSAGES } from '#common/i18n/resources.ts';
import { type Locale, LOCALE_CODES, localeDefinition, localeOfPath, localePath, stripLocale } from '#common/locales.ts';
import type { Route } from './+types/root';
import './app.css';
import { appContext } from './context.ts';
import { CRAWLER_ATTRIBUTE, pageSessionOf } from './features/accounts/page-session.ts';
import { SessionRuntime } from './features/accounts/session-runtime.tsx';
import { browserSessionRestore } from './features/accounts/session-navigation.ts';
import { emptyI18n, i18nFor, loadedI18n, loadLocaleMessages, messagesUrl } from './i18n/i18n.ts';
import { TranslationProvider } from './i18n/translation.tsx';
import { canonicalPathOf } from './lib/meta.ts';
import { globalMiddleware } from './middleware/global.ts';
import { PageSettle } from './shell/page-settle.tsx';
import { ViewportPrefetch } from './shell/viewport-prefetch.tsx';
import { BuildUpdates } from './shell/build-updates.tsx';
import { COLOR_MODE_SCRIPT, THEME_COLOR } from './shell/color-mode.ts';
import { accountHintScript } from './features/accounts/account-hint.ts';
import { DefaultShell } from './shell/default-shell.tsx';
import { ErrorPage, errorStatus } from './shell/error-page.tsx';
import { ConfirmDialogOnDemand, ToasterOnDemand } from './shell/on-demand.tsx';
import { RedirectHash } from './shell/redirect-hash.tsx';
import { type RootData, useRootData } from './shell/root-data.ts';
import { TrackingRuntime } from './features/tracking/tracking-runtime.tsx';

/** Global route middleware (spec section 2): session restore, campaign tags, redirect lookup. */
export const middleware: Route.MiddlewareFunction[] = globalMiddleware;

/** Client navigations: the browser's session restore, then the locale's messages (/{locale}/messages.json) for another locale. */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  browserSessionRestore,
  async ({ url }, next) => {
    await loadLocaleMessages(localeOfPath(url.pathname));
    await next();
  },
];

export async function loader({ url, context }: Route.LoaderArgs): Promise<RootData> {
  const { site, request: facts } = context.get(appContext);
  // The server renders with the messages at hand; the browser fetches its locale's
  // /{locale}/messages.json before hydrating (entry.client.tsx), so no page carries them inline.
  const locale = localeOfPath(url.pathname);
  i18nFor(locale, MESSAGES[locale]);
  return {
    productName: site.productName,
    publicOrigin: site.publicOrigin,
    communityChatUrl: site.communityChatUrl,
    socialPlatforms: site.socialPlatforms,
    pixelId: site.pixelId,
    buildId: site.buildId,
    nonce: facts.nonce,
    session: await pageSessionOf(context),
    crawler: facts.crawler,
  };
}

// The root data is what the first page load needs; later locales load their own messages and
// everything else is read from the URL, so only form submissions ask for it again.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? defaultShouldRevalidate : false);

/** The translations of a locale; keys only if its messages could not be loaded. */
function i18nOf(locale: Locale) {
  return loadedI18n(locale) ?? emptyI18n(locale);
}

export const meta: Route.MetaFunction = ({ error, loaderData, location }) => {
  if (!error) return [];
  const { t } = i18nOf(localeOfPath(location.pathname));
  const title = t(errorStatus(error) === 404 ? 'shell:notFound.title' : 'shell:error.title');
  return [{ title: `${title} | ${loaderData?.productName ?? ''}` }];
};

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const definition = localeDefinition(locale);
  const origin = data?.publicOrigin ?? '';
  const path = canonicalPathOf(useMatches()) ?? stripLocale(pathname);
  return (
    <html
      lang={definition.language}
      dir={definition.dir}
      data-build={data?.buildId}
      {...(data?.crawler ? { [CRAWLER_ATTRIBUTE]: '' } : {})}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content={THEME_COLOR.light} media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content={THEME_COLOR.dark} media="(prefers-color-scheme: dark)" />
        {/* Before anything paints: the stored colour mode (no flash of the wrong theme), and whether the
            browser's account is a member's (the header and side menu take their places at once). The
            scripts are in the server's HTML only: hydration keeps what is there, and the browser's
            first load does not carry their text. */}
        <script nonce={data?.nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? COLOR_MODE_SCRIPT : '' }} />
        <script nonce={data?.nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? accountHintScript() : '' }} />
        <Meta />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="shortcut icon" href="/favicon.ico" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <link rel="preload" as="fetch" crossOrigin="anonymous" href={messagesUrl(locale, data?.buildId)} />
        <link rel="manifest" href={`/api/manifest/webmanifest.json?locale=${locale}`} />
        <link rel="canonical" href={origin + localePath(locale, path)} />
        {LOCALE_CODES.map((code) => (
          <link key={code} rel="alternate" hrefLang={code} href={origin + localePath(code, path)} />
        ))}
        <link rel="alternate" hrefLang="x-default" href={origin + path} />
        <Links />
      </head>
      <body className="min-h-dvh bg-white text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {children}
        <ScrollRestoration nonce={data?.nonce} />
        <Scripts nonce={data?.nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const locale = localeOfPath(useLocation().pathname);
  const i18n = i18nOf(locale);
  return (
    <TranslationProvider translator={i18n}>
      <SessionRuntime />
      <Outlet />
      <ToasterOnDemand />
      <ConfirmDialogOnDemand />
      <BuildUpdates buildId={loaderData.buildId} />
      <ViewportPrefetch />
      <PageSettle />
      <RedirectHash />
      <TrackingRuntime />
    </TranslationProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const i18n = i18nOf(localeOfPath(useLocation().pathname));
  return (
    <TranslationProvider translator={i18n}>
      {/* The header names the visitor here too (a not-found page is still theirs). */}
      <SessionRuntime />
      <DefaultShell>
        <ErrorPage error={error} />
      </DefaultShell>
      <ToasterOnDemand />
    </TranslationProvider>
  );
}
