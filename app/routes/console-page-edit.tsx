import { PAGE_SLUG_PATTERN } from '#common/api/pages.schema.ts';
import { PageEditor } from '../features/console/page-editor.tsx';
import { invalidParameter } from '../lib/route-errors.ts';
import type { Route } from './+types/console-page-edit';

/** /console/pages/:slug: a static page's editor (decision 099). */
export function loader({ request, params }: Route.LoaderArgs) {
  if (!PAGE_SLUG_PATTERN.test(params.slug) || params.slug.length > 64) invalidParameter(request);
  return { slug: params.slug };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PageEditor key={loaderData.slug} slug={loaderData.slug} />;
}
