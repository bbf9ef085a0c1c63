import {
  ArticleIdParamsSchema,
  ArticleInfoSchema,
  ArticleListQuerySchema,
  ArticleListSchema,
  ColumnInfoSchema,
  ColumnParamsSchema,
} from '#common/api/articles.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { ArticlesService } from './articles.service.ts';

export function articlesRoutes(api: ApiRouter, articles: ArticlesService): void {
  api.route(
    {
      method: 'GET',
      url: '/article/column/info/:column',
      summary: 'A column or sub-column: title, description, cover, parent and sub-columns',
      tags: ['articles'],
      params: ColumnParamsSchema,
      response: ColumnInfoSchema,
    },
    async ({ locale, params }) => articles.columnInfo(locale, params.column),
  );

  api.route(
    {
      method: 'GET',
      url: '/article/list/:column',
      summary: "A column's published articles, newest first",
      description: "Includes the articles of the column's sub-columns. Page with the returned cursor.",
      tags: ['articles'],
      params: ColumnParamsSchema,
      query: ArticleListQuerySchema,
      response: ArticleListSchema,
    },
    async ({ locale, params, query }) => articles.list(locale, params.column, query),
  );

  api.route(
    {
      method: 'GET',
      url: '/article/info/:id',
      summary: 'A published article: texts, rendered body, tags, related articles, previous and next in its column',
      tags: ['articles'],
      params: ArticleIdParamsSchema,
      response: ArticleInfoSchema,
    },
    async ({ locale, params }) => articles.info(locale, params.id),
  );
}
