import { pageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/not-found';

/** Any unmatched route: 404 "Page not found: {path}"; the root error boundary shows the not-found page. */
export function loader({ url }: Route.LoaderArgs): never {
  pageNotFound(url);
}

export default function NotFound() {
  return null;
}
