import type { FastifyRequest } from 'fastify';
import { PREVIEW_HEADER } from '#common/constants.ts';

/** The preview label a game bridge call came through (decision 097), or undefined: the service checks it. */
export function previewLabelOf(request: FastifyRequest): string | undefined {
  const value = request.headers[PREVIEW_HEADER];
  return typeof value === 'string' && value.length <= 64 ? value : undefined;
}

/** How the OpenAPI document describes the header on the calls that read it. */
export const PREVIEW_HEADER_NOTE = ` A build's preview page sends \`${PREVIEW_HEADER}: b{build}-{signature}\` (the label of its preview link): then an unpublished game answers its developer and QA test members (decision 097).`;
