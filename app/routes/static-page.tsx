import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/static-page';

const TITLE_KEYS: Record<string, string> = {
  about: 'pages.about',
  terms: 'pages.terms',
  'cookie-policy': 'pages.cookiePolicy',
  'privacy-policy': 'pages.privacyPolicy',
};

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  const slug = new URL(request.url).pathname.split('/').pop() ?? 'about';
  return { slug, title: t(TITLE_KEYS[slug] ?? 'pages.about') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function StaticPage({ loaderData }: Route.ComponentProps) {
  return <h1 className="text-xl font-semibold">{loaderData.title}</h1>;
}
