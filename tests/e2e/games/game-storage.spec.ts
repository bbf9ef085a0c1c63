import type { Frame, FrameLocator, Page } from '@playwright/test';
// The SDK's types, which also declare window.Playport.
import type { Playport } from '../../../sdk/v1/playport.d.ts';
import { newGuest } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, hostedGameFrame, test } from '../fixtures.ts';

// A fresh browser's first game waits for its guest account; each answer of the cloud save is a round trip.
const expect = baseExpect.configure({ timeout: 20_000 });

/** Opens the Game SDK tour in the play page, ready. */
async function openTour(page: Page, url = '/play/sdk-tour'): Promise<{ frame: Frame; tour: FrameLocator }> {
  await page.goto(url);
  const frame = await hostedGameFrame(page, 'sdk-tour');
  const tour = page.frameLocator('[data-testid="game-frame"]');
  await expect(tour.locator('body')).toHaveAttribute('data-ready', '1');
  return { frame, tour };
}

/** Presses a call's button in the tour and answers what it resolved with (the tour prints it as JSON). */
async function press(tour: FrameLocator, id: string): Promise<unknown> {
  await tour.locator(`#call-${id}`).click();
  const output = tour.locator(`#out-${id}`);
  await expect(output).toHaveAttribute('data-state', 'ok');
  return JSON.parse((await output.getAttribute('data-json'))!);
}

/** What the frame's own storage does: localStorage throws where it is refused, indexedDB.open fails later through onerror. */
function ownStorage(frame: Frame) {
  return frame.evaluate(async () => ({
    localStorage: (() => {
      try {
        window.localStorage.getItem('anything');
        return 'ok';
      } catch (error) {
        return `throws ${(error as Error).name}`;
      }
    })(),
    indexedDB: await new Promise<string>((resolve) => {
      try {
        const request = indexedDB.open('a-game-save');
        request.addEventListener('success', () => resolve('ok'));
        request.addEventListener('error', () => resolve('onerror'));
      } catch (error) {
        resolve(`throws ${(error as Error).name}`);
      }
    }),
  }));
}

test.describe('a game’s storage where the browser blocks third-party storage (decision 108)', { tag: '@db' }, () => {
  test('the frame may ask for its storage, the SDK says it is refused, and the bridge keeps localStorage across a reload in the cloud save', async ({
    page,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    // The browser's refusal of the Storage Access API, which it reports on the console.
    problems.allow('requestStorageAccess:');
    // Playwright's contexts block third-party cookies and storage, as incognito windows do.
    await useSession(page.context(), baseURL!, (await newGuest(request)).token);
    const { frame, tour } = await openTour(page);
    await expect(page.getByTestId('game-frame')).toHaveAttribute('sandbox', /(^| )allow-storage-access-by-user-activation( |$)/);
    expect(await ownStorage(frame)).toEqual({ localStorage: 'throws SecurityError', indexedDB: 'onerror' });
    expect(await press(tour, 'storage-available')).toEqual({ localStorage: false, indexedDB: false, bridged: false });
    // From a click the frame may ask; the browser refuses a site the player never visited.
    expect(await press(tour, 'storage-request')).toEqual({ granted: false });

    expect(await press(tour, 'storage-bridge')).toEqual({ bridged: true });
    expect(await press(tour, 'storage-available')).toEqual({ localStorage: false, indexedDB: false, bridged: true });
    await frame.evaluate(async () => {
      window.localStorage.setItem('progress', 'level-7');
      window.localStorage.setItem('volume', '0.4');
      window.localStorage.removeItem('volume');
      const sdk: Playport = window.Playport;
      await sdk.storage.flush();
    });
    expect(await frame.evaluate(() => window.Playport.data.get('playport.localStorage'))).toEqual({ progress: 'level-7' });

    // Next visit: the bridge gives back what the game kept.
    const again = await openTour(page);
    expect(await press(again.tour, 'storage-bridge')).toEqual({ bridged: true });
    expect(await again.frame.evaluate(() => [window.localStorage.getItem('progress'), window.localStorage.length, window.localStorage.key(0)])).toEqual([
      'level-7',
      1,
      'progress',
    ]);
  });

  test('where the browser allows the frame its storage, the bridge stays out of the way', async ({ storagePage: page, baseURL }) => {
    test.slow();
    const { frame, tour } = await openTour(page, `${baseURL}/play/sdk-tour`);
    expect(await ownStorage(frame)).toEqual({ localStorage: 'ok', indexedDB: 'ok' });
    expect(await press(tour, 'storage-available')).toEqual({ localStorage: true, indexedDB: true, bridged: false });
    expect(await press(tour, 'storage-bridge')).toEqual({ bridged: false });
  });
});
