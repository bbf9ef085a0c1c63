import { z } from 'zod';
import { DataExportFileQuerySchema, DataExportListSchema, DataExportParamsSchema, DataExportRequestedSchema } from '#common/api/member-data.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { MemberDataService } from './member-data.service.ts';

const TAGS = ['accounts'];

/** "Download my data" (decision 144). */
export function memberDataRoutes(api: ApiRouter, memberData: MemberDataService): void {
  api.route(
    {
      method: 'GET',
      url: '/user/data-exports/',
      summary: "The caller's requests for an archive of their data",
      description: 'Newest first, at most 10. A ready archive carries its signed download link (downloadUrl) until it expires, 7 days after it was ready.',
      tags: TAGS,
      auth: 'required',
      response: DataExportListSchema,
    },
    async ({ caller }) => ({ exports: await memberData.exportsOf(caller!) }),
  );

  api.route(
    {
      method: 'POST',
      url: '/user/data-exports/',
      summary: 'Ask for an archive of everything held about the caller',
      description:
        'Stores the request and answers at once (201); the archive (JSON files in a zip: account, sessions, sign-in methods without secrets, plays, favourites, ' +
        'cloud saves, scores, achievements, orders, items, studio data) is prepared in the background, usually within seconds; poll the list for its link. ' +
        'A request of the last 24 hours that is pending or on offer is answered instead of a new one (created: false).',
      tags: TAGS,
      auth: 'required',
      response: DataExportRequestedSchema,
      status: 201,
    },
    ({ caller }) => memberData.requestExport(caller!),
  );

  api.route(
    {
      method: 'GET',
      url: '/user/data-exports/:id/file',
      summary: 'Download a prepared archive by its signed link',
      description:
        'The link itself is the permission (it works without a session, for 7 days after the archive was ready); a link that does not hold, or has expired, is one 404. ' +
        'Sent as an attachment, never cached.',
      tags: TAGS,
      auth: 'none',
      params: DataExportParamsSchema,
      query: DataExportFileQuerySchema,
      rawResponses: {
        '200': { description: 'The archive, a zip', contentType: 'application/zip', schema: z.string() },
        '404': { description: 'No archive behind this link (any reason), in the envelope' },
      },
    },
    async ({ params, query, reply }) => {
      const file = await memberData.download(params.id, query.signature);
      return reply
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="${file.filename}"`)
        .header('Content-Length', String(file.size))
        .header('Cache-Control', 'private, no-store')
        .header('Referrer-Policy', 'no-referrer')
        .send(file.stream);
    },
  );
}
