import type { FastifyRequest } from 'fastify';
import type { ClientFacts } from '../lib/caller.ts';

/** The client facts of a request; the user agent is cut to 200 characters (it names tokens). */
export function clientFacts(request: FastifyRequest): ClientFacts {
  const agent = request.headers['user-agent'];
  return { address: request.ip, userAgent: typeof agent === 'string' ? agent.slice(0, 200) : undefined };
}
