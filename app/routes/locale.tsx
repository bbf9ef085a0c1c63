import { data, Outlet } from 'react-router';
import { isLocale } from '#common/locales.ts';
import type { Route } from './+types/locale';

/** Accepts only the supported locale prefixes; anything else in that position is an unmatched route. */
export function loader({ params, request }: Route.LoaderArgs) {
  if (params.lang !== undefined && !isLocale(params.lang)) {
    const path = new URL(request.url).pathname;
    throw data({ message: `Page not found: ${path}` }, { status: 404 });
  }
  return null;
}

export default function LocaleScope() {
  return <Outlet />;
}
