import { AxeBuilder } from '@axe-core/playwright';
import type { Frame, Page } from '@playwright/test';
import { conflictingClassLists } from '../../support/class-conflicts.ts';
import { newGuest } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { apiData } from '../catalogue/helpers.ts';
import { expect, hostedGameFrame, test } from '../fixtures.ts';

// SDK 1.1 (decision 093) through a demo game: Whack-a-Mole reports loading and gameplay, asks for
// ad breaks (the portal's stand-in by default), follows the player's mute button and makes an
// invite link that opens it with its parameters.

/** A fresh browser's first game waits for its guest account (see tests/e2e/catalogue/play.spec.ts). */
const FIRST_GAME_MS = 20_000;

async function openGame(page: Page, path: string): Promise<Frame> {
  await page.goto(path);
  await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
  return hostedGameFrame(page, 'whack-a-mole');
}

/** Asks for an ad break from inside the game, as the game's own buttons do, without waiting for it. */
function adBreak(frame: Frame, kind: 'midgame' | 'rewarded') {
  return frame.evaluate((k) => (window as unknown as { Playport: { ad: { break(kind: string): Promise<{ status: string }> } } }).Playport.ad.break(k), kind);
}

test.describe('the game SDK’s events, settings, invite links and ad breaks', { tag: '@db' }, () => {
  test('a game’s loading and play are recorded, ad breaks pause it and are capped, mute reaches it, and an invite link opens it with its parameters', async ({
    page,
    request,
    baseURL,
  }) => {
    test.slow();
    const guest = await newGuest(request);
    await useSession(page.context(), baseURL!, guest.token);
    const { id: appId } = await apiData<{ id: number }>(request, '/app/info/?slug=whack-a-mole');
    let frame = await openGame(page, '/en/play/whack-a-mole');
    const game = () => page.frameLocator('[data-testid="game-frame"]');
    const body = game().locator('body');
    await expect(body).toHaveAttribute('data-state', 'ready');
    // The settings reach the game when it loads: sound on, the portal's language.
    await expect(body).toHaveAttribute('data-muted', '0');
    await expect(body).toHaveAttribute('data-locale', 'en');

    // A round starts (gameplayStart) and is given up (gameplayStop) after a second and a half.
    await game().locator('#overlay').click();
    await expect(body).toHaveAttribute('data-state', 'playing');
    await page.waitForTimeout(1500);
    await game().locator('#restart').click();
    await expect(body).toHaveAttribute('data-state', 'ready');

    // Midgame: the marked stand-in over the game, the game paused and muted, then resumed; a second one is capped.
    const midgame = adBreak(frame, 'midgame');
    const standIn = page.getByTestId('ad-stand-in');
    await expect(standIn).toBeVisible();
    await expect(standIn).toHaveAttribute('data-kind', 'midgame');
    await expect(standIn.getByRole('dialog', { name: 'Short break' })).toBeVisible();
    await expect(standIn).toContainText('Ad placeholder');
    await expect(body).toHaveAttribute('data-paused', '1');
    await expect(body).toHaveAttribute('data-muted', '1');
    expect(await midgame).toEqual({ status: 'shown' });
    await expect(standIn).toBeHidden();
    await expect(body).toHaveAttribute('data-paused', '0');
    await expect(body).toHaveAttribute('data-muted', '0');
    expect(await adBreak(frame, 'midgame')).toEqual({ status: 'capped' });
    await expect(standIn).toBeHidden();

    // Rewarded: watched to the end it rewards; the next one is capped.
    const rewarded = adBreak(frame, 'rewarded');
    await expect(standIn).toHaveAttribute('data-kind', 'rewarded');
    await expect(standIn.getByRole('button', { name: 'Skip (no reward)' })).toBeVisible();
    await expect(body).toHaveAttribute('data-paused', '1');
    // The placeholder is accessible (decision 073's rules) while it shows.
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="ad-stand-in"]').analyze();
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
    const classLists = await standIn.locator('[class]').evaluateAll((elements) => elements.map((element) => element.getAttribute('class') ?? ''));
    expect(conflictingClassLists(classLists)).toEqual([]);
    expect(await rewarded).toEqual({ status: 'rewarded' });
    await expect(body).toHaveAttribute('data-paused', '0');
    expect(await adBreak(frame, 'rewarded')).toEqual({ status: 'capped' });
    // A kind the SDK does not know is refused with its code.
    const refused = await frame.evaluate(() =>
      (window as unknown as { Playport: { ad: { break(kind: string): Promise<unknown> } } }).Playport.ad.break('popup').then(
        () => 'resolved',
        (error: { code: string }) => error.code,
      ),
    );
    expect(refused).toBe('validation');

    // A happy moment: the portal celebrates lightly, and not again at once.
    await frame.evaluate(() => (window as unknown as { Playport: { game: { happyTime(): void } } }).Playport.game.happyTime());
    await expect(page.getByTestId('happy-time')).toHaveText('🎉 Well played!');
    await expect(page.getByTestId('happy-time')).toBeHidden();

    // The play page's mute button: the game hears of it at once, and reads it back.
    const mute = page.getByTestId('play-mute');
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
    await mute.click();
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await expect(body).toHaveAttribute('data-muted', '1');
    expect(await frame.evaluate(() => (window as unknown as { Playport: { settings: { muted: boolean } } }).Playport.settings.muted)).toBe(true);
    await mute.click();
    await expect(body).toHaveAttribute('data-muted', '0');

    // An invite link: the portal's play page with the game's parameters, which the game reads when opened from it.
    const link = await frame.evaluate(() =>
      (window as unknown as { Playport: { game: { inviteLink(p: object): Promise<string> } } }).Playport.game.inviteLink({ beat: 7, mode: 'classic' }),
    );
    expect(link).toBe(`${baseURL}/en/play/whack-a-mole?p_beat=7&p_mode=classic`);
    const tooMany = await frame.evaluate(() =>
      (window as unknown as { Playport: { game: { inviteLink(p: object): Promise<string> } } }).Playport.game.inviteLink({ 'bad key': 1 }).then(
        () => 'resolved',
        (error: { code: string }) => error.code,
      ),
    );
    expect(tooMany).toBe('validation');

    // Leaving the page sends the session's figures (keepalive); the next page reads the parameters.
    frame = await openGame(page, link);
    await expect(body).toHaveAttribute('data-beat', '7');
    expect(await frame.evaluate(() => (window as unknown as { Playport: { game: { params(): Promise<unknown> } } }).Playport.game.params())).toEqual({
      beat: '7',
      mode: 'classic',
    });
    // The mute choice is kept for the next visit.
    await expect(page.getByTestId('play-mute')).toHaveAttribute('aria-pressed', 'false');

    // The first visit was recorded: its loading time, its time to gameplay, and about 1.5 s of play (ad breaks not counted).
    const sessions = async () => {
      const response = await request.get(`/serve/api/tracking/game-sessions/${appId}`, { headers: { authorization: `Bearer ${guest.token}` } });
      return (await response.json()).data.items as Array<{ playMs: number; loadingMs: number | null; toGameplayMs: number | null }>;
    };
    await expect.poll(async () => (await sessions()).some((session) => session.playMs > 0)).toBe(true);
    const played = (await sessions()).find((session) => session.playMs > 0)!;
    expect(played.playMs).toBeGreaterThanOrEqual(1200);
    expect(played.playMs).toBeLessThan(8000);
    expect(played.loadingMs).toEqual(expect.any(Number));
    expect(played.loadingMs!).toBeLessThan(FIRST_GAME_MS);
    expect(played.toGameplayMs!).toBeGreaterThan(played.loadingMs!);
  });
});
