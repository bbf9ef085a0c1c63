import type { AppTileData } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import { AppTile } from './app-tile.tsx';

/** How many tiles of a grid are likely above the fold and load at once. */
const PRIORITY_TILES = 6;

/** A dense grid of tiles: two a row on small phones, up to six on wide screens (a page of 12 fills whole rows). */
export function AppGrid({ apps, locale, label, prioritise = false }: { apps: AppTileData[]; locale: Locale; label?: string; prioritise?: boolean }) {
  return (
    <ul className="grid grid-cols-2 gap-x-3 gap-y-5 sm:grid-cols-3 md:grid-cols-4 xl:grid-cols-6" data-testid="app-grid" aria-label={label}>
      {apps.map((app, index) => (
        <li key={app.id}>
          <AppTile app={app} locale={locale} priority={prioritise && index < PRIORITY_TILES} />
        </li>
      ))}
    </ul>
  );
}
