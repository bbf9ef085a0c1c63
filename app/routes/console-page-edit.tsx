import { PAGE_SLUG_PATTERN } from '#common/api/pages.schema.ts';
import { PageEditor } from '../features/console/page-editor.tsx';
import { invalidParameter } from '../lib/route-errors.ts';
import type { Route } from './+types/console-page-edit';

/** /console/pages/new and /console/pages/:slug: the static page editor (decision 099). */
export function loader({ request, params }: Route.LoaderArgs) {
  if (params.slug === undefined) return { slug: null };
  if (!PAGE_SLUG_PATTERN.test(params.slug) || params.slug.length > 64) invalidParameter(request);
  return { slug: params.slug };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  // A new key per page: the editor starts afresh instead of carrying one page's state into another.
  return <PageEditor key={loaderData.slug ?? 'new'} slug={loaderData.slug} />;
}
