import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type APIRequestContext, expect } from '@playwright/test';
import { type Account, call, newMember, uniqueUsername } from './accounts.ts';

/**
 * The Studio's whole details form (PUT /studio/games/{id}/), as the details page sends it: the
 * listing a journey needs, with `fields` over empty lists and no images.
 */
export function studioForm(fields: { i18n: Record<string, { title: string; summary: string; description: string }> } & Record<string, unknown>) {
  return {
    categories: ['puzzle'],
    tags: [],
    orientation: 'landscape',
    width: 800,
    height: 450,
    backends: [],
    thumbnail: null,
    cover: null,
    screenshots: [],
    items: [],
    leaderboards: [],
    achievements: [],
    ...fields,
  };
}

/** One webhook delivery as a game's backend received it. */
export interface ReceivedWebhook {
  signature: string;
  body: string;
}

/**
 * A game's backend on this machine that answers 200 and `answerText` to every webhook delivery and
 * keeps each one, as it arrives, in `received`. `url` is its webhook address; `close` when done.
 */
export async function startWebhookBackend(answerText = 'ok'): Promise<{ received: ReceivedWebhook[]; url: string; close: () => Promise<void> }> {
  const received: ReceivedWebhook[] = [];
  const backend = createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      received.push({ signature: String(incoming.headers['playport-signature']), body: Buffer.concat(chunks).toString('utf8') });
      answer.writeHead(200, { 'content-type': 'text/plain' }).end(answerText);
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: `http://127.0.0.1:${(backend.address() as AddressInfo).port}/playport/webhook`,
    close: () => new Promise<void>((resolve) => backend.close(() => resolve())),
  };
}

/**
 * A new member with a studio and one draft game with nothing but its English title, named after
 * `word` ("focus": the studio "Focus Works", the game "Focus Run" with a slug "focus-…").
 */
export async function newStudioWithDraftGame(
  request: APIRequestContext,
  word: string,
  password = 'Harbour-Lantern-Tricky-9',
): Promise<{ member: Account; gameId: number }> {
  const name = word[0]!.toUpperCase() + word.slice(1);
  const member = await newMember(request, uniqueUsername(word), password);
  const profile = await call(request, 'PUT', '/studio/profile/', {
    token: member.token,
    body: { studioName: `${name} Works`, contactEmail: `team@${word}.test` },
  });
  expect(profile.status).toBe(200);
  const created = await call<{ id: number }>(request, 'POST', '/studio/games/', {
    token: member.token,
    body: { slug: `${word}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, i18n: { en: { title: `${name} Run` } } },
  });
  expect(created.status).toBe(201);
  return { member, gameId: created.data.id };
}
