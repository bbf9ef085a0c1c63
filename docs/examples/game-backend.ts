// A game's own backend (docs/sdk/login.md, "Your game's backend"): the server of the Number Vault
// demo game (games/number-vault). It keeps each player's secret code, so the game cannot peek, and
// trusts a player only with a game token from Playport.login(), checked offline against the
// portal's published keys. Plain node:http and `jose`, nothing else. Run it beside the portal:
//   node docs/examples/game-backend.ts
// Environment: PORT (4680; the port the game's catalogue entry declares in `backends`),
// PORTAL_ORIGIN (http://localhost:3000), APP_ID (the game's id; looked up from the portal by
// its slug when unset) and GAME_ORIGIN (the one origin allowed to call from a browser;
// http://number-vault.games.localhost:<the portal's port + 1>, where the portal serves its games).
import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/** The vault's rules, sent to the game with every round so the two never disagree. */
export const VAULT_RULES = { min: 1, max: 100, tries: 7 } as const;

export interface GameBackendOptions {
  portalOrigin: string;
  appId: number;
  gameOrigin: string;
  /** Where the portal's keys are: <portal>/.well-known/jwks.json unless told otherwise. */
  jwksUrl?: URL;
}

interface PlayerRecord {
  secret: number | null;
  triesLeft: number;
  played: number;
  won: number;
  /** The fewest guesses of a won round. */
  best: number | null;
}

class HttpError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** What a player sees of their own record. */
const stats = (record: PlayerRecord) => ({ played: record.played, won: record.won, best: record.best });

async function readGuess(request: IncomingMessage): Promise<number> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 1024) throw new HttpError(413, 'payload_too_large', 'The request is too large.');
  }
  let guess: unknown;
  try {
    guess = (JSON.parse(body) as { guess?: unknown }).guess;
  } catch {
    throw new HttpError(400, 'validation', 'The body must be JSON: {"guess": <number>}.');
  }
  if (!Number.isInteger(guess) || (guess as number) < VAULT_RULES.min || (guess as number) > VAULT_RULES.max)
    throw new HttpError(400, 'validation', `A guess is a whole number from ${VAULT_RULES.min} to ${VAULT_RULES.max}.`);
  return guess as number;
}

/** The backend as a node:http server, not yet listening. Players' records live in its memory. */
export function createGameBackend(options: GameBackendOptions): Server {
  const portal = new URL(options.portalOrigin).origin;
  const gameOrigin = new URL(options.gameOrigin).origin;
  // Fetched once and cached; fetched again when a token names a key id it has not seen.
  const keys = createRemoteJWKSet(options.jwksUrl ?? new URL('/.well-known/jwks.json', portal));
  const players = new Map<string, PlayerRecord>();

  async function player(request: IncomingMessage): Promise<PlayerRecord> {
    const header = request.headers.authorization ?? '';
    const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(header)?.[1];
    if (!token) throw new HttpError(401, 'unauthenticated', 'A game token is required (Authorization: Bearer <token from Playport.login()>).');
    let subject: string | undefined;
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: portal, audience: `app:${options.appId}`, algorithms: ['EdDSA'] });
      subject = payload.sub;
    } catch (error) {
      throw new HttpError(401, 'unauthenticated', `The game token was refused: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!subject) throw new HttpError(401, 'unauthenticated', 'The game token names no player.');
    let record = players.get(subject);
    if (!record) players.set(subject, (record = { secret: null, triesLeft: 0, played: 0, won: 0, best: null }));
    return record;
  }

  async function route(request: IncomingMessage): Promise<unknown> {
    const path = new URL(request.url ?? '/', 'http://backend').pathname;
    if (request.method === 'GET' && path === '/stats') return { stats: stats(await player(request)) };
    if (request.method === 'POST' && path === '/round') {
      const record = await player(request);
      record.secret = randomInt(VAULT_RULES.min, VAULT_RULES.max + 1);
      record.triesLeft = VAULT_RULES.tries;
      record.played += 1;
      return { ...VAULT_RULES, triesLeft: record.triesLeft, stats: stats(record) };
    }
    if (request.method === 'POST' && path === '/guess') {
      const record = await player(request);
      const guess = await readGuess(request);
      if (record.secret === null) throw new HttpError(409, 'no_round', 'No vault is open: start a round first.');
      record.triesLeft -= 1;
      const answer = guess === record.secret ? 'correct' : guess < record.secret ? 'higher' : 'lower';
      const secret = record.secret;
      const over = answer === 'correct' || record.triesLeft === 0;
      if (answer === 'correct') {
        record.won += 1;
        const used = VAULT_RULES.tries - record.triesLeft;
        record.best = record.best === null ? used : Math.min(record.best, used);
      }
      if (over) record.secret = null;
      // The code is told only once the round is over.
      return { answer, triesLeft: record.triesLeft, over, code: over ? secret : null, stats: stats(record) };
    }
    throw new HttpError(404, 'not_found', 'No such endpoint.');
  }

  return createServer((request, response) => {
    const origin = request.headers.origin;
    // A browser may call only from the game's origin; other callers (curl, servers) send no Origin.
    if (origin !== undefined && origin !== gameOrigin) return send(response, 403, { error: 'forbidden', message: 'This origin may not call the vault.' });
    if (origin) response.setHeader('Access-Control-Allow-Origin', gameOrigin);
    response.setHeader('Vary', 'Origin');
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': '600',
      });
      return response.end();
    }
    route(request).then(
      (data) => send(response, 200, data),
      (error: unknown) => {
        if (error instanceof HttpError) return send(response, error.status, { error: error.code, message: error.message });
        console.error(error);
        send(response, 500, { error: 'failed', message: 'The vault failed.' });
      },
    );
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** The game's id, from the portal's public catalogue. */
async function lookUpAppId(portalOrigin: string, slug: string): Promise<number> {
  const response = await fetch(new URL(`/serve/api/app/info/?slug=${slug}`, portalOrigin));
  if (!response.ok) throw new Error(`the portal at ${portalOrigin} does not know the game "${slug}" (${response.status}); set APP_ID`);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

if (import.meta.main) {
  const portalOrigin = new URL(process.env.PORTAL_ORIGIN ?? 'http://localhost:3000').origin;
  const port = Number(process.env.PORT ?? 4680);
  const appId = process.env.APP_ID ? Number(process.env.APP_ID) : await lookUpAppId(portalOrigin, 'number-vault');
  const gameOrigin = process.env.GAME_ORIGIN ?? `http://number-vault.games.localhost:${Number(new URL(portalOrigin).port || 80) + 1}`;
  const server = createGameBackend({ portalOrigin, appId, gameOrigin });
  server.listen(port, process.env.HOST ?? '127.0.0.1', () => {
    const { address } = server.address() as AddressInfo;
    console.info(`Number Vault backend on http://${address}:${port}: tokens of app ${appId} from ${portalOrigin}, browser calls from ${gameOrigin}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
