import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  ArticleMediaResultSchema,
  ArticleMediaUploadSchema,
  ConsoleArticleIdParamsSchema,
  ConsoleArticleInputSchema,
  ConsoleArticleListQuerySchema,
  ConsoleArticleListSchema,
  ConsoleArticleSchema,
  ConsoleGameChangeSchema,
  ConsoleGameIdParamsSchema,
  ConsoleGameListQuerySchema,
  ConsoleGameListSchema,
  ConsoleGameSchema,
  ConsolePageCreateSchema,
  ConsolePageInputSchema,
  ConsolePageListSchema,
  ConsolePageParamsSchema,
  ConsolePageSchema,
  MarkdownPreviewResultSchema,
  MarkdownPreviewSchema,
} from '#common/api/console-content.schema.ts';
import { ApiRouter } from '#server/http/api-router.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import { ARTICLE_IMAGE_MAX_BYTES, type ConsoleContentService } from './console-content.service.ts';
import type { ConsoleGamesService } from './console-games.service.ts';

const TAGS = ['console'];
const OPERATORS_ONLY = '401 without a token, 403 for anyone who is not an operator (decision 095).';
const MULTIPART_LOG_REDACTIONS = ['busboyOptions.headers.authorization', 'busboyOptions.headers.cookie', 'busboyOptions.headers["x-xsrf-token"]'];

/** The Console's games, articles and static pages (decision 099): operators only, every change audited. */
export async function consoleContentRoutes(api: ApiRouter, games: ConsoleGamesService, content: ConsoleContentService): Promise<void> {
  api.route(
    {
      method: 'GET',
      url: '/console/games/',
      summary: 'Every game and app, published or not, for operators',
      description: `Filter by a substring of the English title or the slug, by publication and by developer (a member id or "house"). ${OPERATORS_ONLY}`,
      tags: TAGS,
      auth: 'required',
      query: ConsoleGameListQuerySchema,
      response: ConsoleGameListSchema,
    },
    ({ caller, query, locale }) => games.list(caller, query, locale),
  );
  api.route(
    {
      method: 'PATCH',
      url: '/console/games/:id',
      summary: 'Unpublish or republish a game, feature or unfeature it on the home page',
      description: `An unpublished game leaves the catalogue, search, categories, sitemap, its pages and the games origin at once (every instance's caches drop). Recorded in the audit log with the reason. ${OPERATORS_ONLY}`,
      tags: TAGS,
      auth: 'required',
      params: ConsoleGameIdParamsSchema,
      body: ConsoleGameChangeSchema,
      response: ConsoleGameSchema,
    },
    ({ caller, params, body }) => games.change(caller, params.id, body),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/markdown/preview',
      summary: 'Markdown rendered and sanitised exactly as readers will see it',
      description: `The site's one pipeline for article and page bodies: scripts, styles, event handlers and unsafe links are dropped. ${OPERATORS_ONLY}`,
      tags: TAGS,
      auth: 'required',
      body: MarkdownPreviewSchema,
      response: MarkdownPreviewResultSchema,
    },
    ({ caller, body }) => content.preview(caller, body.markdown),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/articles/',
      summary: 'Every article, scheduled ones included, newest publish time first',
      tags: TAGS,
      auth: 'required',
      query: ConsoleArticleListQuerySchema,
      response: ConsoleArticleListSchema,
      description: OPERATORS_ONLY,
    },
    ({ caller, query, locale }) => content.listArticles(caller, query.q, locale),
  );
  api.route(
    {
      method: 'POST',
      url: '/console/articles/',
      summary: 'Write a new article in one or both languages',
      description: `A publish time in the future schedules it: readers, lists, the sitemap and feeds see it from then on, without anyone acting. ${OPERATORS_ONLY}`,
      tags: TAGS,
      auth: 'required',
      status: 201,
      body: ConsoleArticleInputSchema,
      response: ConsoleArticleSchema,
    },
    ({ caller, body }) => content.saveArticle(caller, null, body),
  );
  api.route(
    {
      method: 'GET',
      url: '/console/articles/:id',
      summary: 'An article with its Markdown in each language',
      tags: TAGS,
      auth: 'required',
      params: ConsoleArticleIdParamsSchema,
      response: ConsoleArticleSchema,
      description: OPERATORS_ONLY,
    },
    ({ caller, params }) => content.article(caller, params.id),
  );
  api.route(
    {
      method: 'PUT',
      url: '/console/articles/:id',
      summary: 'Replace an article; from then on the content import leaves it alone',
      tags: TAGS,
      auth: 'required',
      params: ConsoleArticleIdParamsSchema,
      body: ConsoleArticleInputSchema,
      response: ConsoleArticleSchema,
      description: `Decision 099: an article saved here is the Console's; the import reports it and does not overwrite it. ${OPERATORS_ONLY}`,
    },
    ({ caller, params, body }) => content.saveArticle(caller, params.id, body),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/pages/',
      summary: 'The static pages with their languages',
      tags: TAGS,
      auth: 'required',
      response: ConsolePageListSchema,
      description: OPERATORS_ONLY,
    },
    ({ caller, locale }) => content.listPages(caller, locale),
  );
  api.route(
    {
      method: 'POST',
      url: '/console/pages/',
      summary: 'Create a static page at /page/{slug}, published at once or at its time',
      description: `A publish time ahead schedules it: readers get 404 until then. 422 on the slug when a page has it already. Recorded in the audit log. ${OPERATORS_ONLY}`,
      tags: TAGS,
      auth: 'required',
      body: ConsolePageCreateSchema,
      response: ConsolePageSchema,
    },
    ({ caller, body }) => content.createPage(caller, body),
  );
  api.route(
    {
      method: 'GET',
      url: '/console/pages/:slug',
      summary: 'A static page with its Markdown in each language',
      tags: TAGS,
      auth: 'required',
      params: ConsolePageParamsSchema,
      response: ConsolePageSchema,
      description: OPERATORS_ONLY,
    },
    ({ caller, params }) => content.page(caller, params.slug),
  );
  api.route(
    {
      method: 'PUT',
      url: '/console/pages/:slug',
      summary: "Replace a static page's texts and publish time; from then on the content import leaves it alone",
      tags: TAGS,
      auth: 'required',
      params: ConsolePageParamsSchema,
      body: ConsolePageInputSchema,
      response: ConsolePageSchema,
      description: OPERATORS_ONLY,
    },
    ({ caller, params, body }) => content.savePage(caller, params.slug, body),
  );

  // Multipart parsing exists only in this scope, as for avatars.
  await api.app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ARTICLE_IMAGE_MAX_BYTES, files: 1, fields: 2, parts: 3 } });
    scope.addHook('onRequest', async (request) => {
      request.log = request.log.child({}, { redact: MULTIPART_LOG_REDACTIONS });
    });
    const uploads = new ApiRouter(scope);
    uploads.route(
      {
        method: 'POST',
        url: '/console/articles/media',
        summary: 'Upload an image for an article (body or cover)',
        description: `multipart/form-data with one file part named "file": SVG, PNG, JPEG, WebP, GIF or AVIF, at most 5 MB, stored in the article media store under a name with its content's hash. ${OPERATORS_ONLY}`,
        tags: TAGS,
        auth: 'required',
        status: 201,
        multipart: ArticleMediaUploadSchema,
        response: ArticleMediaResultSchema,
      },
      async ({ caller, request }) => {
        // The role first: nobody else's upload is even read.
        await content.requireOperator(caller);
        return content.uploadImage(caller, await readImage(request));
      },
    );
    api.routes.push(...uploads.routes);
  });
}

async function readImage(request: FastifyRequest): Promise<{ name: string; bytes: Buffer }> {
  const errors = request.server.multipartErrors;
  try {
    const file = await request.file();
    if (!file) throw fieldError({ file: ['console:content.errors.notAnImage'] });
    return { name: file.filename, bytes: await file.toBuffer() };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof errors.RequestFileTooLargeError) throw fieldError({ file: ['console:content.errors.imageTooLarge'] }, error);
    if (error instanceof errors.InvalidMultipartContentTypeError) throw new AppError('unsupported_media_type', { cause: error });
    throw new AppError('bad_request', { cause: error });
  }
}
