// The server's area of the configuration: where it listens, the origins it answers for (the
// portal's, the games' and the previews'), and which proxies it believes.
import { isIP } from 'node:net';
import { z } from 'zod';
import { isPort, OptionalHttpUrl, Port } from './env-values.ts';

/** Named ranges that Fastify's trustProxy (proxy-addr) understands. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which hops' X-Forwarded-For entries to believe: none (`false`), the last N hops (a number), or
 * hops from these addresses (a list). A bare `true` would believe the leftmost address, which any
 * client writes itself, and so let everyone choose the address every per-address limit counts.
 */
export const TrustProxySchema = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): false | number | string[] => {
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'true would trust every X-Forwarded-For hop, so any client could pick its own address and dodge every per-address limit; ' +
          'write the number of proxies in front of the server (1 for one load balancer) or their addresses (127.0.0.1,10.0.0.0/8)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops >= 1 && hops <= 10) return hops;
    }
    const list = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (list.length > 0 && list.every(isProxyAddress)) return list;
    ctx.addIssue({ code: 'custom', message: 'must be false, a number of proxies from 1 to 10, or a comma-separated list of proxy addresses or CIDR ranges' });
    return z.NEVER;
  });

/**
 * The value for Fastify's `trustProxy`. A hop count becomes a function (Fastify's types take no
 * number): the N hops nearest the server are proxies, and the address before them is the client.
 */
export function trustProxyOption(trust: false | number | string[]): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** Where the server answers only this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

export function gamesPortOf(env: { PORT: number; GAMES_PORT?: number | undefined }): number {
  return env.GAMES_PORT ?? (env.PORT === 0 ? 0 : env.PORT + 1);
}

/** The games port and origin: GAMES_PORT / GAMES_ORIGIN, else the port after PORT on games.localhost. */
export function gamesOriginOf(env: { PORT: number; GAMES_PORT?: number | undefined; GAMES_ORIGIN?: string | undefined }): { port: number; origin: string } {
  const port = gamesPortOf(env);
  return { port, origin: new URL(env.GAMES_ORIGIN ?? `http://games.localhost:${port}`).origin };
}

/** A host's site as far as cookies go, approximated by its last two labels (an IP address is its own). */
function siteOf(host: string): string {
  return isIP(host.replace(/^\[(.*)\]$/, '$1')) ? host : host.split('.').slice(-2).join('.');
}

/**
 * Why a games origin would be refused: a game keeps its own origin (allow-same-origin), so on the
 * portal's site it could set cookies the portal reads (a Domain cookie of the shared parent).
 * Hosts sharing their last two labels count as one site here, which is safe for co.uk-style names too.
 */
export function gamesOriginProblem(publicOrigin: string, gamesOrigin: string): string | null {
  const portal = new URL(publicOrigin);
  const games = new URL(gamesOrigin);
  if (games.pathname !== '/' || games.search || games.hash) return 'must be an origin, without a path';
  if (isIP(games.hostname.replace(/^\[(.*)\]$/, '$1'))) return 'must be a host name: each game is served on a host below it';
  if (siteOf(games.hostname) === siteOf(portal.hostname))
    return `shares its site with PUBLIC_ORIGIN (${portal.host}): use a domain of its own, so games cannot set cookies the portal reads`;
  return null;
}

/** The origin builds' previews are served from (decision 108): PREVIEWS_ORIGIN, else previews.localhost on the games port. */
export function previewsOriginOf(env: { PREVIEWS_ORIGIN?: string | undefined }, gamesPort: number): string {
  return new URL(env.PREVIEWS_ORIGIN ?? `http://previews.localhost:${gamesPort}`).origin;
}

/**
 * Why a previews origin would be refused (decision 108): a preview runs a build nobody reviewed, so
 * it gets a site of its own, neither the portal's (its cookies) nor the games' (a Domain cookie of
 * the games' parent reaches every published game).
 */
export function previewsOriginProblem(publicOrigin: string, gamesOrigin: string, previewsOrigin: string): string | null {
  const previews = new URL(previewsOrigin);
  if (previews.pathname !== '/' || previews.search || previews.hash) return 'must be an origin, without a path';
  if (isIP(previews.hostname.replace(/^\[(.*)\]$/, '$1'))) return 'must be a host name: each preview is served on a host below it';
  if (siteOf(previews.hostname) === siteOf(new URL(publicOrigin).hostname))
    return 'shares its site with PUBLIC_ORIGIN: use a domain of its own, so a preview cannot set cookies the portal reads';
  if (siteOf(previews.hostname) === siteOf(new URL(gamesOrigin).hostname))
    return 'shares its site with GAMES_ORIGIN: use a domain of its own, so a preview cannot set cookies published games receive';
  return null;
}

/** The public origin: PUBLIC_ORIGIN, else this machine on the port the server listens on. */
export function publicOriginOf(env: { PUBLIC_ORIGIN?: string | undefined; PORT: number }): string {
  return env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}`;
}

/**
 * Whether others than this machine's own user may reach the server: it listens beyond loopback,
 * or its public origin is https (a deployment). The published development secret and the
 * development code inbox are refused then, whatever APP_ENV says.
 */
export function reachableByOthers(env: { HOST: string; PUBLIC_ORIGIN?: string | undefined; PORT: number }): boolean {
  return exposure(env) !== null;
}

/** Why the server counts as reachable by others, for the refusals' messages; null when it does not. */
export function exposure(env: { HOST: string; PUBLIC_ORIGIN?: string | undefined; PORT: number }): string | null {
  if (!isLoopbackHost(env.HOST)) return `HOST=${env.HOST} listens beyond loopback`;
  const origin = publicOriginOf(env);
  return origin.startsWith('https:') ? `PUBLIC_ORIGIN=${origin} is https` : null;
}

/** The variables of this area. */
export const networkEnvShape = {
  HOST: z.string().min(1).default('localhost'),
  PORT: Port.default(3000),
  /** Default http://localhost:{PORT}: game tokens' issuer and the sandbox's webhook follow the port. */
  PUBLIC_ORIGIN: OptionalHttpUrl,
  /** The port game files are served on (decision 089); default PORT + 1 (0 with PORT 0). */
  GAMES_PORT: Port.optional(),
  /**
   * The origin game files are served from, each game on a host of its own below it:
   * https://games.example.net serves https://<slug>.games.example.net. Default
   * http://games.localhost:{GAMES_PORT}. It must not share a site with PUBLIC_ORIGIN.
   */
  GAMES_ORIGIN: OptionalHttpUrl,
  /**
   * The origin builds' previews are served from (decision 108), each preview on a host below it,
   * by the games origin's listener: https://previews.example.org serves
   * https://<label>.previews.example.org. Default http://previews.localhost:{GAMES_PORT}; required
   * in production with GAMES_ORIGIN. Another site than both PUBLIC_ORIGIN and GAMES_ORIGIN.
   */
  PREVIEWS_ORIGIN: OptionalHttpUrl,
  TRUST_PROXY: TrustProxySchema,
};

type NetworkEnv = {
  APP_ENV: string;
  HOST: string;
  PORT: number;
  PUBLIC_ORIGIN?: string | undefined;
  GAMES_PORT?: number | undefined;
  GAMES_ORIGIN?: string | undefined;
  PREVIEWS_ORIGIN?: string | undefined;
};

/** The checks across this area's variables: ports that make origins, and origins on sites of their own. */
export function checkNetworkEnv(env: NetworkEnv, ctx: z.RefinementCtx): void {
  const games = gamesOriginOf(env);
  const gamesProblem = gamesOriginProblem(publicOriginOf(env), env.GAMES_ORIGIN ?? games.origin);
  if (gamesProblem) ctx.addIssue({ code: 'custom', path: ['GAMES_ORIGIN'], message: gamesProblem });
  if (env.APP_ENV === 'production' && env.GAMES_ORIGIN && !env.PREVIEWS_ORIGIN)
    ctx.addIssue({ code: 'custom', path: ['PREVIEWS_ORIGIN'], message: 'is required with GAMES_ORIGIN in production: previews need a domain of their own' });
  const previewsProblem = previewsOriginProblem(
    publicOriginOf(env),
    env.GAMES_ORIGIN ?? games.origin,
    env.PREVIEWS_ORIGIN ?? previewsOriginOf(env, games.port),
  );
  if (previewsProblem) ctx.addIssue({ code: 'custom', path: ['PREVIEWS_ORIGIN'], message: previewsProblem });
  if (env.GAMES_PORT !== undefined && env.GAMES_PORT !== 0 && env.GAMES_PORT === env.PORT)
    ctx.addIssue({ code: 'custom', path: ['GAMES_PORT'], message: 'must differ from PORT: the portal is never served on the games origin' });
}

/** Checks the ports the origins are built from; false when they are unusable and no other check should run. */
export function checkPorts(env: { PORT: number; GAMES_PORT?: number | undefined }, ctx: z.RefinementCtx): boolean {
  // A port out of range is reported by its own field.
  if (!isPort(env.PORT) || (env.GAMES_PORT !== undefined && !isPort(env.GAMES_PORT))) return false;
  if (!isPort(gamesPortOf(env))) {
    ctx.addIssue({ code: 'custom', path: ['GAMES_PORT'], message: `is unset and PORT + 1 (${gamesPortOf(env)}) is no port: set GAMES_PORT` });
    return false;
  }
  return true;
}
