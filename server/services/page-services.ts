// The part of the services page loaders see (app/context.ts).
import type { Services } from '../services.ts';

/**
 * What page loaders may call (app/context.ts): the services that decide, never the database handle,
 * the import writers or the limiter.
 */
const PAGE_SERVICE_NAMES = [
  'accounts',
  'articles',
  'catalogue',
  'library',
  'pages',
  'redirects',
  'social',
  'payments',
  'records',
  'operators',
  'developers',
  'auditLog',
  'studioGames',
  'gameChanges',
  'builds',
  'consoleGames',
  'consoleContent',
  'studioStats',
  'studioKeys',
  'earnings',
] as const;

export type PageServices = Pick<Services, (typeof PAGE_SERVICE_NAMES)[number]>;

export function pageServices(services: Services): PageServices {
  return Object.fromEntries(PAGE_SERVICE_NAMES.map((name) => [name, services[name]])) as PageServices;
}
