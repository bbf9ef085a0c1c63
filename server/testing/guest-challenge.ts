import type { FastifyInstance } from 'fastify';
import type { GuestChallenge } from '#common/api/accounts.schema.ts';
import { solve } from '#common/proof-of-work.ts';

/** A solved challenge for POST /guest/login/, fetched and solved as the browser does it. */
export async function solvedChallenge(app: FastifyInstance): Promise<{ challenge: string; nonce: string }> {
  const response = await app.inject({ method: 'GET', url: '/serve/api/guest/challenge/' });
  const { challenge, difficulty } = response.json().data as GuestChallenge;
  return { challenge, nonce: await solve(challenge, difficulty, async () => undefined) };
}
