import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { createGameBackend } from '../../../docs/examples/game-backend.ts';
import { newGuest } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { apiData } from '../catalogue/helpers.ts';
import { expect, hostedGameFrame, test } from '../fixtures.ts';
import { READY_GRACE_MS } from '../../../app/features/games/game-loading.ts';

// The demo games that need an origin of their own (the games origin): WebAssembly fetched and
// compiled, levels fetched as files, IndexedDB, a worker, and a backend of the game's own that
// checks the player's game token. Each is played through the portal's play page.

/** A fresh browser's first game waits for its guest account (see tests/e2e/catalogue/play.spec.ts). */
const FIRST_GAME_MS = 20_000;
/** Where Number Vault's catalogue entry declares its backend: the only address its policy lets it call. */
const VAULT_BACKEND_PORT = 4680;

function game(page: Page) {
  return page.frameLocator('[data-testid="game-frame"]');
}

/** Opens the game's play page as a returning guest and waits for the game to say it loaded. */
async function play(page: Page, slug: string, request: APIRequestContext, baseURL: string) {
  await useSession(page.context(), baseURL, (await newGuest(request)).token);
  await page.goto(`/play/${slug}`);
  const frame = page.getByTestId('game-frame');
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-pointer-lock allow-storage-access-by-user-activation');
  await expect(frame).toHaveAttribute('src', new RegExp(`^http://${slug}\\.games\\.localhost:\\d+/`));
  await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
  return hostedGameFrame(page, slug);
}

// Run on both databases: the games sign in, and Number Vault's backend checks the tokens the portal issues.
test.describe('games with an engine of their own', { tag: '@db' }, () => {
  // A game's storage is a third party's on the play page (decision 089): these two journeys run in a
  // profile that allows it, as most desktop browsers do; Crate Pusher's first lines show the game without it.
  test('Lights Out runs its rules as WebAssembly: presses and hints come from the module, and the level reached survives a reload', async ({
    storagePage: page,
    request,
    baseURL,
  }) => {
    test.slow();
    const wasm = page.waitForResponse((response) => response.url().endsWith('/build/lights-out.wasm'), { timeout: FIRST_GAME_MS });
    await play(page, 'lights-out', request, baseURL!);
    expect((await wasm).headers()['content-type']).toBe('application/wasm');
    const body = game(page).locator('body');
    await expect(body).toHaveAttribute('data-state', 'ready');
    await expect(body).toHaveAttribute('data-level', '1');
    expect(Number(await body.getAttribute('data-lit'))).toBeGreaterThan(0);

    // The keyboard: a press, then the same press again, puts the board back as it was.
    const lit = await body.getAttribute('data-lit');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Space');
    await expect(body).toHaveAttribute('data-moves', '1');
    await expect(body).toHaveAttribute('data-state', 'playing');
    await page.keyboard.press('Space');
    await expect(body).toHaveAttribute('data-moves', '2');
    await expect(body).toHaveAttribute('data-lit', lit!);

    // The module's solver names a cell of a shortest solution: following it clears the board in the fewest presses.
    const fewest = Number(await body.getAttribute('data-par'));
    for (let press = 0; press < fewest; press++) {
      await page.keyboard.press('h');
      await expect(body).not.toHaveAttribute('data-hint', '-1');
      const cell = await body.getAttribute('data-hint');
      await game(page).locator(`.c[data-index="${cell}"]`).click();
      await expect(body).toHaveAttribute('data-moves', String(3 + press));
    }
    await expect(body).toHaveAttribute('data-state', 'won');
    await expect(body).toHaveAttribute('data-lit', '0');
    await expect(game(page).locator('#overlay')).toContainText('Lights out!');

    // The game's origin keeps its storage: the next level waits after a reload.
    await page.reload();
    await expect(body).toHaveAttribute('data-state', 'ready', { timeout: FIRST_GAME_MS });
    await expect(body).toHaveAttribute('data-level', '2');
  });

  test('the play page shows how much of a large game has arrived, from the SDK’s loading progress', async ({ page, request, baseURL }) => {
    // The module is held back, so the game is still loading when it reports.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/build/lights-out.wasm', async (route) => {
      await held;
      await route.continue();
    });
    // What the game reports, as the play page receives it.
    await page.addInitScript(() => {
      const reported: number[] = [];
      Object.assign(window, { reportedProgress: reported });
      addEventListener('message', (event: MessageEvent<{ type?: string; progress?: number }>) => {
        if (event.data?.type === 'playport:loading' && typeof event.data.progress === 'number') reported.push(event.data.progress);
      });
    });
    await useSession(page.context(), baseURL!, (await newGuest(request)).token);
    await page.clock.install();
    await page.goto('/play/lights-out');
    const frame = await hostedGameFrame(page, 'lights-out');
    await expect(page.getByTestId('game-loading')).toBeVisible();
    await expect(page.getByTestId('game-progress')).toHaveCount(0);
    await frame.evaluate(() => (window as unknown as { Playport: { loading: { progress(value: number): void } } }).Playport.loading.progress(0.4));
    await expect(page.getByTestId('game-progress')).toHaveAttribute('value', '40');
    await expect(page.getByTestId('game-loading')).toContainText('40% loaded');
    // Past the grace a game without the SDK gets, a game that reports its loading still loads.
    await page.clock.runFor(READY_GRACE_MS + 500);
    await expect(page.getByTestId('game-loading')).toContainText('40% loaded');
    // The module arrives, counted as it comes (its length is known: engine files are not compressed
    // on the way), and the game is ready.
    release();
    await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
    await expect(game(page).locator('body')).toHaveAttribute('data-state', 'ready');
    expect(await page.evaluate(() => (window as unknown as { reportedProgress: number[] }).reportedProgress.at(-1))).toBe(1);
  });

  test('Crate Pusher runs where third-party storage is blocked, keeping progress for the visit', async ({ page, request, baseURL }) => {
    await play(page, 'crate-pusher', request, baseURL!);
    const body = game(page).locator('body');
    await expect(body).toHaveAttribute('data-state', 'ready');
    await expect(body).toHaveAttribute('data-store', 'memory');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(body).toHaveAttribute('data-state', 'won');
  });

  test('Crate Pusher fetches its levels, keeps progress in IndexedDB across a reload and hints from a worker', async ({
    storagePage: page,
    request,
    baseURL,
  }) => {
    test.slow();
    const firstLevel = page.waitForResponse((response) => response.url().endsWith('/levels/01.json'), { timeout: FIRST_GAME_MS });
    await play(page, 'crate-pusher', request, baseURL!);
    expect((await firstLevel).ok()).toBe(true);
    const body = game(page).locator('body');
    await expect(body).toHaveAttribute('data-state', 'ready');
    await expect(body).toHaveAttribute('data-store', 'indexeddb');
    await expect(body).toHaveAttribute('data-level', '01');

    // Level 1 takes two pushes to the right; the record is stored before the game says so.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(body).toHaveAttribute('data-state', 'won');
    await expect(game(page).locator('#overlay')).toContainText('Solved!');
    await expect(body).toHaveAttribute('data-stored', '01:2');

    // After a reload the game goes on at level 2 and still knows level 1 was solved in 2 moves.
    await page.reload();
    await expect(body).toHaveAttribute('data-state', 'ready', { timeout: FIRST_GAME_MS });
    await expect(body).toHaveAttribute('data-level', '02');
    const solved = game(page).locator('[data-level-id="01"]');
    await expect(solved).toHaveClass(/\bdone\b/);
    await expect(solved).toHaveAttribute('data-best', '2');

    // Level 2 played by hints alone: each is the worker's first move of a shortest solution.
    const keys = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' } as const;
    let moves = 0;
    while ((await body.getAttribute('data-state')) !== 'won') {
      expect(moves, 'the hints reach the solution').toBeLessThan(20);
      await page.keyboard.press('h');
      await expect(body).toHaveAttribute('data-hint', /^(up|down|left|right)$/);
      await expect(game(page).locator('#status')).toContainText('Next:');
      await page.keyboard.press(keys[(await body.getAttribute('data-hint')) as keyof typeof keys]);
      moves += 1;
      await expect(body).toHaveAttribute('data-moves', String(moves));
    }
    await expect(body).toHaveAttribute('data-stored', `02:${moves}`);

    // A crate pushed into a corner: the worker finds no way out.
    await page.keyboard.press('Digit5');
    await expect(body).toHaveAttribute('data-level', '05');
    await expect(body).toHaveAttribute('data-state', 'ready');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('h');
    await expect(body).toHaveAttribute('data-hint', 'stuck');
    await expect(game(page).locator('#status')).toHaveText('No way out from here: undo or restart.');
  });

  // In the storage profile, which sends no X-Forwarded-For of the tests' own: the browser would send
  // it to the game's backend too, whose CORS rightly does not allow it.
  test("Number Vault plays against its own backend with the player's game token, and says so when the backend is down", async ({
    storagePage: page,
    request,
    baseURL,
  }) => {
    test.slow();
    const app = await apiData<{ id: number }>(request, '/app/info/?slug=number-vault');
    const frame = await play(page, 'number-vault', request, baseURL!);
    const body = game(page).locator('body');
    await expect(body).toHaveAttribute('data-state', 'idle');

    // The example backend, trusting the portal's published keys, for this game and its origin alone.
    const backend = createGameBackend({ portalOrigin: baseURL!, appId: app.id, gameOrigin: new URL(frame.url()).origin });
    await new Promise<void>((listening) => backend.listen(VAULT_BACKEND_PORT, '127.0.0.1', listening));
    expect((backend.address() as AddressInfo).port).toBe(VAULT_BACKEND_PORT);
    const calls: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().startsWith(`http://127.0.0.1:${VAULT_BACKEND_PORT}/`))
        calls.push(`${sent.method()} ${new URL(sent.url()).pathname} ${sent.headers().authorization ? 'token' : 'none'}`);
    });
    try {
      await game(page).locator('#start').click();
      await expect(body).toHaveAttribute('data-state', 'playing', { timeout: FIRST_GAME_MS });
      await expect(body).toHaveAttribute('data-tries', '7');

      // Halving the range opens a vault of 1–100 within its 7 tries; the keypad and the keyboard both type.
      let [low, high] = [1, 100];
      for (let turn = 1; (await body.getAttribute('data-state')) === 'playing'; turn++) {
        expect(turn, 'halving opens the vault in 7 tries').toBeLessThanOrEqual(7);
        const guess = String(Math.floor((low + high) / 2));
        if (turn % 2 === 1) {
          for (const digit of guess) await page.keyboard.press(digit);
          await page.keyboard.press('Enter');
        } else {
          for (const digit of guess) await game(page).locator(`.keys button[data-key="${digit}"]`).click();
          await game(page).locator('.keys button[data-key="go"]').click();
        }
        await expect(body).toHaveAttribute('data-guesses', String(turn));
        const answer = await body.getAttribute('data-answer');
        if (answer === 'higher') low = Number(guess) + 1;
        else if (answer === 'lower') high = Number(guess) - 1;
      }
      await expect(body).toHaveAttribute('data-state', 'won');
      await expect(game(page).locator('#overlay')).toContainText('The vault is open!');
      await expect(game(page).locator('#won')).toHaveText('1');
      expect(calls[0]).toBe('POST /round token');
      expect(calls.slice(1).every((call) => call === 'POST /guess token')).toBe(true);
    } finally {
      await new Promise((closed) => backend.close(closed));
    }

    // With its backend gone, the game says the vault's server does not answer.
    await game(page).locator('#start').click();
    await expect(body).toHaveAttribute('data-state', 'offline');
    await expect(game(page).locator('#overlay')).toContainText('The vault’s server does not answer');
    await expect(game(page).locator('#start')).toHaveText('Try again');
  });
});
