import type { FastifyRequest } from 'fastify';
import { createIsbotFromList, list as crawlerPatterns } from 'isbot';
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

/**
 * isbot's patterns that name a browser-automation tool, not a crawler: a studio's automated test
 * of its game on the portal is a player and gets a guest account like anyone (decision 117). The
 * guest limits never depended on this verdict: the server makes accounts for any user agent.
 */
export const AUTOMATION_PATTERNS = ['headless', 'playwright', 'selenium', 'phantomjs', 'cypress/'];
const crawlerAgent = createIsbotFromList(crawlerPatterns.filter((pattern) => !AUTOMATION_PATTERNS.includes(pattern)));

/** Whether a user agent is a crawler's: isbot's list without the automation tools, so a search crawler that renders pages headless still names itself. */
export function isCrawlerAgent(agent: string | undefined): boolean {
  return typeof agent === 'string' && crawlerAgent(agent);
}

/** Whether the request's user agent is a crawler's (isCrawlerAgent), decided once per request for the page and its cache key. */
export function isCrawler(request: FastifyRequest): boolean {
  let verdict = crawlerVerdicts.get(request);
  if (verdict === undefined) {
    verdict = isCrawlerAgent(request.headers['user-agent']);
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
