import { Link } from 'react-router';
import type { AppSummary } from '#common/api/catalogue.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';

/** One game in a grid: fixed 4:3 image box so nothing shifts while it loads. */
export function AppTile({ app, locale, eager = false }: { app: AppSummary; locale: Locale; eager?: boolean }) {
  return (
    <Link
      to={localePath(locale, `/app/${app.slug}`)}
      className="group block rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-600"
      data-testid="app-tile"
    >
      <div className="aspect-[4/3] overflow-hidden rounded-xl bg-zinc-100 shadow-sm transition-transform duration-150 group-hover:-translate-y-0.5 group-hover:shadow-md dark:bg-zinc-800">
        <img
          src={app.thumbnail}
          alt=""
          width={400}
          height={300}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-full w-full object-cover"
        />
      </div>
      <p className="mt-2 truncate text-sm font-medium">{app.title}</p>
    </Link>
  );
}
