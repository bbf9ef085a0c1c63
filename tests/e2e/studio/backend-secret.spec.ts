import { createHmac } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { newMember, uniqueUsername } from '../../support/accounts.ts';
import { giveCatalogueGameToNewStudio } from '../../support/run-database.ts';
import { afterDebounce } from '../accounts/helpers.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

/** A signed look-up of the game's backend (docs/sdk/backend-calls.md): 404 for an unknown order once the signature is accepted, 401 when refused. */
async function signedLookup(request: APIRequestContext, gameId: number, secret: string, nonce: string): Promise<number> {
  const body = JSON.stringify({ orderId: 'nosuchorder0', nonce });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  const answer = await request.post(`/serve/api/game/backend/${gameId}/purchases/verify`, {
    headers: { 'content-type': 'application/json', 'playport-timestamp': timestamp, 'playport-signature': `v1=${signature}` },
    data: body,
  });
  return answer.status();
}

test.describe('Studio: backend secret (decision 110)', () => {
  test('a developer makes the backend secret, sees it once, rotates it and both work during the overlap @db', async ({
    page,
    context,
    baseURL,
    request,
    problems,
  }) => {
    // Two secrets, three reloads and five signed calls: past 30 s on a busy two-core runner.
    test.slow();
    const member = await newMember(request, uniqueUsername('keys'), 'Harbour-Lantern-Tricky-9');
    // Creating a game in the Studio is its own journey: here a catalogue game is given to the developer.
    const gameId = await giveCatalogueGameToNewStudio(member.userInfo.uid, { name: 'Key Studio', contactEmail: 'dev@key.test' });
    // The signed calls refused before a secret exists, and with the old one after the overlap, are the test's own.
    problems.allow(/status of 40[14] .*\/serve\/api\/game\/backend\//);

    await useSession(context, baseURL!, member.token);
    await page.goto(`/studio/games/${gameId}/webhooks`);
    await hydrated(page);
    const panel = page.getByTestId('backend-secret');
    await expect(panel.getByRole('heading', { name: 'Backend secret' })).toBeVisible();
    await expect(panel).toContainText('No backend secret yet');

    await panel.getByTestId('backend-secret-make').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Backend secret made.' })).toBeVisible();
    const first = (await panel.getByTestId('backend-secret-value').textContent())!;
    expect(first).toMatch(/^pps_[\w-]{43}$/);
    await expect(panel.getByTestId('backend-secret-made')).toBeVisible();
    await expect(panel.getByTestId('backend-secret-overlap')).toHaveCount(0);
    expect(await signedLookup(request, gameId, first, 'first')).toBe(404);

    // Shown once: after a reload the page knows a secret exists, not what it is.
    await page.reload();
    await hydrated(page);
    await expect(panel.getByTestId('backend-secret-made')).toBeVisible();
    await expect(panel.getByTestId('backend-secret-value')).toHaveCount(0);
    expect(await page.content()).not.toContain(first);

    // A new one, after a warning: the old one keeps working for a day, and the page says until when.
    await afterDebounce(page);
    await panel.getByTestId('backend-secret-make').click();
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toContainText('Make a new backend secret?');
    await page.getByTestId('confirm-accept').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'The previous one keeps working for 24 hours.' })).toBeVisible();
    const second = (await panel.getByTestId('backend-secret-value').textContent())!;
    expect(second).toMatch(/^pps_[\w-]{43}$/);
    expect(second).not.toBe(first);
    await expect(panel.getByTestId('backend-secret-overlap')).toContainText('The previous secret keeps working until');
    expect(await signedLookup(request, gameId, second, 'second')).toBe(404);
    expect(await signedLookup(request, gameId, first, 'first-in-overlap')).toBe(404);
    expect(await signedLookup(request, gameId, `${second}x`, 'wrong')).toBe(401);

    await page.reload();
    await hydrated(page);
    await expect(panel.getByTestId('backend-secret-value')).toHaveCount(0);
    await expect(panel.getByTestId('backend-secret-overlap')).toBeVisible();
  });
});
