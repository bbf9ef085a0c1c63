import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** What an id from a proxy in front may look like: long enough to be unique, short and plain enough to log and echo. */
const ACCEPTED_ID = /^[A-Za-z0-9._:=+/-]{8,128}$/;

/** A proxy's id when it is a safe one (so its logs and ours meet), else a new random one. */
export function requestIdFor(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
}

/** Fastify's options for it: every log line of a request carries the id as `reqId`. */
export const requestIdOptions = {
  genReqId: (req) => requestIdFor(req.headers['x-request-id']),
  // Fastify would take any incoming value as it is: requestIdFor checks it first.
  requestIdHeader: false,
} satisfies Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'>;

/** Every answer names its request's id, so a report of a failure leads to its log lines. */
export function answerRequestId(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
