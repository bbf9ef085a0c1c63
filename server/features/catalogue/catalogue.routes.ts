import { AppListQuerySchema, AppListSchema } from '#common/api/catalogue.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { CatalogueService } from './catalogue.service.ts';

export function catalogueRoutes(api: ApiRouter, catalogue: CatalogueService): void {
  api.route(
    {
      method: 'GET',
      url: '/app/list/',
      summary: 'List apps and games',
      description: 'Filter by type, category, tag or search text; sort by popular, newest or name; page with the returned cursor.',
      tags: ['catalogue'],
      query: AppListQuerySchema,
      response: AppListSchema,
    },
    ({ locale, query }) => catalogue.list(locale, query),
  );
}
