import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import { AD_CONSENT_COOKIE, UTM_FIELDS } from '#common/constants.ts';
import type { ClientFacts } from '../lib/caller.ts';

/** The client facts of a request; the user agent is cut to 200 characters (it names tokens). */
export function clientFacts(request: FastifyRequest): ClientFacts {
  const agent = request.headers['user-agent'];
  return {
    address: request.ip,
    userAgent: typeof agent === 'string' ? agent.slice(0, 200) : undefined,
    campaign: campaignOf(request),
    adConsent: request.cookies?.[AD_CONSENT_COOKIE] === 'accepted',
  };
}

/** Verdicts already given: the page cache's key and the page's context ask for the same request. */
const crawlerVerdicts = new WeakMap<FastifyRequest, boolean>();

/** Whether the request's user agent is a crawler's (isbot's list), decided once per request for the page and its cache key. */
export function isCrawler(request: FastifyRequest): boolean {
  let verdict = crawlerVerdicts.get(request);
  if (verdict === undefined) {
    const agent = request.headers['user-agent'];
    verdict = typeof agent === 'string' && isbot(agent);
    crawlerVerdicts.set(request, verdict);
  }
  return verdict;
}

/** The campaign tags of the Utm-* headers the API client sends (URL-encoded values, at most 200 characters each). */
function campaignOf(request: FastifyRequest): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const field of UTM_FIELDS) {
    const value = request.headers[`utm-${field}`];
    if (typeof value !== 'string' || value === '' || value.length > 600) continue;
    try {
      tags[field] = decodeURIComponent(value).slice(0, 200);
    } catch {
      tags[field] = value.slice(0, 200);
    }
  }
  return tags;
}
