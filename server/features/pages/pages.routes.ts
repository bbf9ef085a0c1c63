import { PageInfoQuerySchema, PageInfoSchema } from '#common/api/pages.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { PagesService } from './pages.service.ts';

export function pagesRoutes(api: ApiRouter, pages: PagesService): void {
  api.route(
    {
      method: 'GET',
      url: '/page/info/',
      summary: 'A static page (about, terms, privacy policy, cookie policy)',
      description: 'Texts in the requested locale, else English. The body is sanitised HTML. 404 when no such page exists.',
      tags: ['pages'],
      auth: 'none',
      query: PageInfoQuerySchema,
      response: PageInfoSchema,
    },
    ({ locale, query }) => pages.info(locale, query.slug),
  );
}
