import { useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Links, Meta, type MetaFunction, Outlet, Scripts, ScrollRestoration, type ShouldRevalidateFunction, useLoaderData, useRouteLoaderData } from 'react-router';
import { MESSAGES } from '#common/i18n/resources.ts';
import { localeDefinition, localePath } from '#common/locales.ts';
import type { Route } from './+types/root';
import './app.css';
import { appContext } from './context.ts';
import { i18nFor } from './i18n/i18n.ts';
import { localeOfPath, stripLocale } from './lib/locale.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const { site, request: facts } = context.get(appContext);
  const url = new URL(request.url);
  const locale = localeOfPath(url.pathname);
  return {
    locale,
    messages: MESSAGES[locale],
    productName: site.productName,
    publicOrigin: site.publicOrigin,
    communityChatUrl: site.communityChatUrl,
    buildId: site.buildId,
    nonce: facts.nonce,
    path: stripLocale(url.pathname),
  };
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>;

// The root data (messages, site facts) only changes with the locale.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate, formMethod }) =>
  formMethod ? defaultShouldRevalidate : localeOfPath(currentUrl.pathname) !== localeOfPath(nextUrl.pathname);

export const meta: MetaFunction = () => [{ name: 'viewport', content: 'width=device-width, initial-scale=1, viewport-fit=cover' }];

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootLoaderData>('root');
  const locale = data?.locale ?? 'en';
  const definition = localeDefinition(locale);
  const origin = data?.publicOrigin ?? '';
  const path = data?.path ?? '/';
  return (
    <html lang={definition.language} dir={definition.dir} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <Meta />
        <meta name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content="#18181B" media="(prefers-color-scheme: dark)" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="shortcut icon" href="/favicon.ico" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <link rel="manifest" href={`/api/manifest/webmanifest.json?locale=${locale}`} />
        <link rel="canonical" href={origin + localePath(locale, path)} />
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

export default function App() {
  const { locale, messages } = useLoaderData<typeof loader>();
  const i18n = useMemo(() => i18nFor(locale, messages), [locale, messages]);
  return (
    <I18nextProvider i18n={i18n}>
      <Outlet />
    </I18nextProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = (error as { status?: number })?.status ?? 500;
  return (
    <main className="mx-auto max-w-xl p-8 text-center">
      <h1 className="text-2xl font-semibold">{status === 404 ? 'Page not found' : 'Something went wrong'}</h1>
    </main>
  );
}
