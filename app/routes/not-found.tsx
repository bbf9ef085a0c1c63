import { pageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/not-found';

/** Any unmatched route: 404 "Page not found: {path}"; the root error boundary shows the not-found page. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}

export default function NotFound() {
  return null;
}
