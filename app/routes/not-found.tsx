import { data } from 'react-router';
import type { Route } from './+types/not-found';

/** Any unmatched route: 404 "Page not found: {path}". */
export function loader({ request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  throw data({ message: `Page not found: ${path}` }, { status: 404 });
}

export default function NotFound() {
  return null;
}
