import { Outlet, type ShouldRevalidateFunction } from 'react-router';
import { firstVisitLocale, rejectUnknownLocale } from '../middleware/locale-redirect.ts';
import type { Route } from './+types/locale';

/**
 * The optional locale segment of every localised route. Other first segments are unmatched
 * routes (404), and the unprefixed home page sends first-time Chinese visitors to /zh-CN.
 */
export const middleware: Route.MiddlewareFunction[] = [firstVisitLocale];

export function loader({ params, url }: Route.LoaderArgs) {
  rejectUnknownLocale(params.lang, url);
  return null;
}

// The check depends on the prefix alone.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentParams, nextParams }) => currentParams.lang !== nextParams.lang;

export default function LocaleScope() {
  return <Outlet />;
}
