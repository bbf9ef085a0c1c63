import { AxeBuilder } from '@axe-core/playwright';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { call, newGuest, newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, hostedGameFrame, portalTakesClicks, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Issue 26's "done means": the developer's journey works end to end from the docs alone. The
// Game SDK tour (games/sdk-tour, written from docs/game-sdk.md and docs/sdk/*.md only) has a button
// for every call of every module; played through the portal's play page, each gives the answer
// the docs promise, first to a guest and then to a member who buys its items.

// A purchase is a round trip through the checkout window, the webhook and the page's poll.
const expect = baseExpect.configure({ timeout: 20_000 });
/** A fresh browser's first game waits for its guest account (see tests/e2e/catalogue/play.spec.ts). */
const FIRST_GAME_MS = 20_000;
const PASSWORD = 'Harbour-Lantern-Tricky-9';

type Answer = { resolved?: any; code?: string };

function tour(page: Page): FrameLocator {
  return page.frameLocator('[data-testid="game-frame"]');
}

async function openTour(page: Page, path = '/play/sdk-tour'): Promise<FrameLocator> {
  await page.goto(path);
  await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
  await hostedGameFrame(page, 'sdk-tour');
  await expect(tour(page).locator('body')).toHaveAttribute('data-ready', '1');
  return tour(page);
}

/** Presses the call's button and answers, once the page printed this press's answer, what it resolved with or its error code. */
function start(game: FrameLocator, id: string): () => Promise<Answer> {
  const output = game.locator(`#out-${id}`);
  // The press is known by its number: the answer of an earlier press may still be on the page.
  const pressed = output.getAttribute('data-call').then(async (before) => {
    await portalTakesClicks(game.owner().page());
    await game.locator(`#call-${id}`).click();
    return Number(before ?? 0) + 1;
  });
  return async () => {
    const number = await pressed;
    const answered = game.locator(`#out-${id}[data-call="${number}"]:is([data-state="ok"], [data-state="error"])`);
    await expect(answered).toHaveCount(1, { timeout: 60_000 });
    if ((await output.getAttribute('data-state')) === 'error') return { code: (await output.getAttribute('data-code'))! };
    return { resolved: JSON.parse((await output.getAttribute('data-json'))!) };
  };
}

async function press(game: FrameLocator, id: string): Promise<Answer> {
  return start(game, id)();
}

/** What an event output has heard so far. */
async function heard(game: FrameLocator, id: string): Promise<any> {
  return JSON.parse((await game.locator(`#out-${id}`).getAttribute('data-json')) ?? 'null');
}

async function appId(request: APIRequestContext): Promise<number> {
  return (await call<{ id: number }>(request, 'GET', '/app/info/?slug=sdk-tour')).data.id;
}

/** The token login() gave, verified as a game's backend does (docs/sdk/login.md). */
async function verified(baseURL: string, token: string, id: number) {
  const keys = createRemoteJWKSet(new URL('/.well-known/jwks.json', baseURL));
  const { payload } = await jwtVerify(token, keys, { issuer: new URL(baseURL).origin, audience: `app:${id}`, algorithms: ['EdDSA'] });
  return payload;
}

async function payWithTestCard(page: Page, pressed: () => Promise<Answer>, checkoutText: string): Promise<Answer> {
  const checkout = await page.waitForEvent('popup');
  await expect(checkout.getByTestId('sandbox-checkout')).toContainText(checkoutText);
  // The card typed before the checkout's scripts run would be lost.
  await hydrated(checkout);
  await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
  const closed = checkout.waitForEvent('close');
  await checkout.getByTestId('sandbox-pay').click();
  await closed;
  return pressed();
}

test.describe('the Game SDK tour: every module through the play page', { tag: '@db' }, () => {
  test('as a guest each call gives its documented answer: login with a verifiable token, the cloud save, items, boards, achievements, game events, settings, ad breaks and an invite link', async ({
    page,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    // Refusals the tour asks for on purpose: the server's answers the game is given.
    problems.allow(/404 \(Not Found\) @ http:\/\/localhost:\d+\/serve\/api\/game\/pay\//);
    problems.allow(/409 \(Conflict\) @ http:\/\/localhost:\d+\/serve\/api\/game\/inventory\//);
    problems.allow(/403 \(Forbidden\) @ http:\/\/localhost:\d+\/serve\/api\/game\/pay\//);
    problems.allow(/422 \(Unprocessable Entity\) @ http:\/\/localhost:\d+\/serve\/api\/game\/leaderboards\//);
    const guest = await newGuest(request);
    await useSession(page.context(), baseURL!, guest.token);
    const id = await appId(request);
    const game = await openTour(page);
    await expect(game.locator('#out-version')).toHaveText('1.2.0');
    await expect(game.locator('#log')).toHaveAttribute('aria-live', 'polite');

    // login: the guest, and a token a backend verifies with the portal's key set for this game.
    const login = (await press(game, 'login')).resolved;
    expect(login.user).toEqual({ uid: guest.userInfo.uid, nickname: guest.userInfo.nickname, isGuest: true });
    expect(Date.parse(login.expiresAt) - Date.now()).toBeGreaterThan(8 * 60_000);
    const claims = await verified(baseURL!, login.token, id);
    expect(claims).toMatchObject({ sub: String(guest.userInfo.uid), aud: `app:${id}`, guest: true });
    await expect(game.getByRole('button', { name: 'Playport.login()' })).toBeVisible();
    await expect(game.locator('#log')).toContainText('Playport.login() → ok');

    // data: set, get, remove, then nothing.
    await game.locator('#data-value').fill('a guest’s note');
    expect((await press(game, 'data-set')).resolved).toEqual({ key: 'tour', updatedAt: expect.any(String) });
    expect(await press(game, 'data-get')).toEqual({ resolved: { note: 'a guest’s note' } });
    expect(await press(game, 'data-remove')).toEqual({ resolved: { key: 'tour' } });
    expect(await press(game, 'data-get')).toEqual({ resolved: null });

    // payments: the config, an unknown SKU and an unknown event refused at once.
    expect(await press(game, 'get-config')).toEqual({
      resolved: {
        appId: id,
        locale: 'en',
        items: expect.arrayContaining([
          { sku: 'sdk-tour-badge', name: 'Tour badge', amount: 99, currency: 'USD', owned: false, kind: 'permanent' },
          { sku: 'sdk-tour-coin', name: 'Tour coin', amount: 25, currency: 'USD', owned: false, kind: 'consumable' },
        ]),
      },
    });
    expect(await press(game, 'pay-unknown')).toEqual({ code: 'not_found' });
    expect(await press(game, 'on-unknown')).toEqual({ code: 'unknown_event' });
    // A guest is asked to secure the account first; closing that refuses with account_not_secured.
    const guestPay = start(game, 'pay-consumable');
    const secure = page.getByTestId('purchase-secure');
    await expect(secure).toContainText('Secure your account to buy');
    await page.getByRole('dialog', { name: 'Secure your account to buy' }).getByRole('button', { name: 'Close' }).click();
    expect(await guestPay()).toEqual({ code: 'account_not_secured' });

    // items: nothing held, so nothing to use up.
    expect(await press(game, 'items-list')).toEqual({ resolved: [] });
    await game.locator('#consume-key').fill(`guest-${Date.now()}`);
    expect(await press(game, 'items-consume')).toEqual({ code: 'not_enough_items' });

    // auth.prompt: the portal's sign-in dialog; closed, it is cancelled and the player is unchanged.
    const prompted = start(game, 'auth-prompt');
    const dialog = page.getByTestId('game-sign-in');
    await expect(dialog).toContainText('Sign in to keep playing');
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await prompted()).toEqual({ resolved: { status: 'cancelled' } });
    expect(await heard(game, 'auth-changes')).toEqual([]);

    // leaderboard: a best score, kept; a worse one changes nothing; out of bounds refused.
    await game.locator('#score').fill('420');
    const submitted = (await press(game, 'leaderboard-submit')).resolved;
    expect(submitted).toMatchObject({ board: 'tour-score', score: 420, periods: [{ period: 'all-time', best: 420, improved: true }] });
    await game.locator('#score').fill('7');
    expect((await press(game, 'leaderboard-submit')).resolved.periods).toEqual([{ period: 'all-time', best: 420, improved: false }]);
    await game.locator('#score').fill('1001');
    expect(await press(game, 'leaderboard-submit')).toEqual({ code: 'score_out_of_bounds' });
    const me = { nickname: guest.userInfo.nickname, isGuest: true, score: 420, isCaller: true };
    const top = (await press(game, 'leaderboard-top')).resolved;
    expect(top).toMatchObject({ period: 'all-time', me: { score: 420, rank: expect.any(Number) } });
    // top and around describe the board as declared, its name in the player's language.
    expect(top.board).toEqual({
      id: 'tour-score',
      name: 'Tour score',
      order: 'desc',
      format: 'number',
      min: 0,
      max: 1000,
      periods: ['all-time'],
      backendOnly: false,
    });
    expect(top.entries).toContainEqual(expect.objectContaining(me));
    const around = (await press(game, 'leaderboard-around')).resolved;
    expect(around).toMatchObject({ period: 'all-time', me: top.me });
    expect(around.entries).toContainEqual(expect.objectContaining({ ...me, rank: top.me.rank }));

    // achievements: unlocked once, the second time the first unlock; listed with its name and icon.
    const unlocked = (await press(game, 'achievements-unlock')).resolved;
    expect(unlocked).toEqual({ id: 'tour-complete', unlockedAt: expect.any(String), newlyUnlocked: true });
    expect(await press(game, 'achievements-unlock')).toEqual({ resolved: { ...unlocked, newlyUnlocked: false } });
    const [achievement] = (await press(game, 'achievements-list')).resolved;
    expect(achievement).toEqual({
      id: 'tour-complete',
      name: 'Tour guide',
      description: 'Unlock this achievement from the SDK tour.',
      icon: expect.any(String),
      unlockedAt: unlocked.unlockedAt,
    });

    // loading and game events are signals: sent, nothing answers. happyTime shows on the page.
    for (const signal of ['loading-progress', 'loading-done', 'game-loading-start', 'game-loading-stop', 'gameplay-start', 'gameplay-stop']) {
      expect(await press(game, signal)).toEqual({ resolved: null });
    }
    await expect(page.getByTestId('game-loading')).toBeHidden();
    expect(await press(game, 'happy-time')).toEqual({ resolved: null });
    await expect(page.getByTestId('happy-time')).toHaveText('🎉 Well played!');

    // settings: heard when loaded; the play page's mute button reaches the game and settings.get().
    expect(await heard(game, 'settings')).toMatchObject({ muted: false, locale: 'en' });
    const before = (await heard(game, 'settings')).events;
    expect(before).toBeGreaterThanOrEqual(1);
    await page.getByTestId('play-mute').click();
    await expect.poll(() => heard(game, 'settings')).toEqual({ muted: true, locale: 'en', events: before + 1 });
    expect(await press(game, 'settings-get')).toEqual({ resolved: { muted: true, locale: 'en' } });
    expect(await press(game, 'settings-properties')).toEqual({ resolved: { muted: true, locale: 'en' } });
    await page.getByTestId('play-mute').click();
    await expect.poll(() => heard(game, 'settings')).toMatchObject({ muted: false, events: before + 2 });

    // ad: the stand-in over the game, which is paused and resumed around each break.
    const midgame = start(game, 'ad-midgame');
    const standIn = page.getByTestId('ad-stand-in');
    await expect(standIn).toHaveAttribute('data-kind', 'midgame');
    await expect(standIn).toContainText('Ad placeholder');
    await expect.poll(() => heard(game, 'ad-events')).toEqual(['pause']);
    expect(await midgame()).toEqual({ resolved: { status: 'shown' } });
    await expect(standIn).toBeHidden();
    expect(await heard(game, 'ad-events')).toEqual(['pause', 'resume']);
    const rewarded = start(game, 'ad-rewarded');
    await expect(standIn).toHaveAttribute('data-kind', 'rewarded');
    expect(await rewarded()).toEqual({ resolved: { status: 'rewarded' } });
    expect(await heard(game, 'ad-events')).toEqual(['pause', 'resume', 'pause', 'resume']);
    expect(await press(game, 'ad-midgame')).toEqual({ resolved: { status: 'capped' } });

    // An invite link: the portal's play page with the parameters, which the game reads when opened from it.
    expect(await heard(game, 'params')).toEqual({});
    const link = (await press(game, 'invite-link')).resolved;
    // The page the game runs in, as the player opened it (here without a language prefix).
    expect(link).toBe(`${baseURL}/play/sdk-tour?p_level=3&p_from=tour`);
    const invited = await openTour(page, link);
    expect(await heard(invited, 'params')).toEqual({ level: '3', from: 'tour' });
    expect(await press(invited, 'game-params')).toEqual({ resolved: { level: '3', from: 'tour' } });
  });

  test('as a member: auth.prompt answers at once, a coin bought with the sandbox card is used up once per key, the badge is bought once then already_owned, and the app page shows the board and the achievement', async ({
    page,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    problems.allow(/409 \(Conflict\) @ http:\/\/localhost:\d+\/serve\/api\/game\/(pay|inventory)\//);
    const member = await newMember(request, uniqueUsername('tourist'), PASSWORD);
    await useSession(page.context(), baseURL!, member.token);
    const id = await appId(request);
    const game = await openTour(page);

    const login = (await press(game, 'login')).resolved;
    expect(login.user).toEqual({ uid: member.userInfo.uid, nickname: member.userInfo.nickname, isGuest: false });
    expect(await verified(baseURL!, login.token, id)).toMatchObject({ sub: String(member.userInfo.uid), guest: false });
    const prompted = (await press(game, 'auth-prompt')).resolved;
    expect(prompted).toMatchObject({ status: 'signed_in', user: { uid: member.userInfo.uid, isGuest: false } });
    await expect(page.getByTestId('game-sign-in')).toHaveCount(0);

    // A coin with the sandbox checkout: paid, heard by on('purchase'), held once.
    const coin = await payWithTestCard(page, start(game, 'pay-consumable'), 'Tour coin · Game SDK tour · $0.25');
    expect(coin).toEqual({ resolved: { status: 'paid', orderId: expect.any(String), sku: 'sdk-tour-coin' } });
    await expect.poll(() => heard(game, 'purchase-events')).toEqual([{ orderId: coin.resolved.orderId, sku: 'sdk-tour-coin' }]);
    expect(await press(game, 'items-list')).toEqual({ resolved: [{ sku: 'sdk-tour-coin', name: 'Tour coin', quantity: 1 }] });
    // A second coin, so that a repeated key taking nothing more shows.
    const second = await payWithTestCard(page, start(game, 'pay-consumable'), 'Tour coin');
    expect(second.resolved).toMatchObject({ status: 'paid', sku: 'sdk-tour-coin' });
    expect(await press(game, 'items-list')).toEqual({ resolved: [{ sku: 'sdk-tour-coin', name: 'Tour coin', quantity: 2 }] });

    const key = `tour-${Date.now()}`;
    await game.locator('#consume-key').fill(key);
    const used = await press(game, 'items-consume');
    expect(used).toEqual({ resolved: { sku: 'sdk-tour-coin', consumed: 1, remaining: 1 } });
    // The same key again (a retry): the same answer, nothing more taken.
    expect(await press(game, 'items-consume')).toEqual(used);
    expect(await press(game, 'items-list')).toEqual({ resolved: [{ sku: 'sdk-tour-coin', name: 'Tour coin', quantity: 1 }] });
    await game.locator('#consume-key').fill(`${key}-b`);
    expect(await press(game, 'items-consume')).toEqual({ resolved: { sku: 'sdk-tour-coin', consumed: 1, remaining: 0 } });
    expect(await press(game, 'items-list')).toEqual({ resolved: [] });

    // The badge: bought once, then already_owned without a checkout; the config says it is owned.
    const badge = await payWithTestCard(page, start(game, 'pay-permanent'), 'Tour badge · Game SDK tour · $0.99');
    expect(badge).toEqual({ resolved: { status: 'paid', orderId: expect.any(String), sku: 'sdk-tour-badge' } });
    let checkouts = 0;
    page.on('popup', () => (checkouts += 1));
    expect(await press(game, 'pay-permanent')).toEqual({ code: 'already_owned' });
    expect(checkouts).toBe(0);
    const config = (await press(game, 'get-config')).resolved;
    expect(config.items).toContainEqual(expect.objectContaining({ sku: 'sdk-tour-badge', owned: true }));

    // A score and the achievement as the member, then on the app page.
    await game.locator('#score').fill('777');
    expect((await press(game, 'leaderboard-submit')).resolved.periods).toEqual([{ period: 'all-time', best: 777, improved: true }]);
    expect((await press(game, 'achievements-unlock')).resolved).toMatchObject({ id: 'tour-complete', newlyUnlocked: true });

    await page.goto('/app/sdk-tour');
    const board = page.getByTestId('board-tour-score');
    await expect(board.getByRole('heading', { name: 'Tour score' })).toBeVisible();
    const row = board.getByRole('row').filter({ hasText: member.userInfo.nickname! });
    await expect(row.getByRole('cell').last()).toHaveText('777');
    const achievement = page.getByTestId('achievement-tour-complete');
    await expect(achievement).toContainText('Tour guide');
    await expect(achievement.getByTestId('achievement-players')).toHaveText(/^[1-9]\d* players? ha(s|ve) it$/);
  });

  test('in Chinese the tour follows the portal’s language: its texts, the items’ names and an invite link under /zh-CN', async ({ page }) => {
    const game = await openTour(page, '/zh-CN/play/sdk-tour');
    await expect(game.getByRole('heading', { level: 1 })).toHaveText('游戏 SDK 导览');
    await expect(game.locator('html')).toHaveAttribute('lang', 'zh-CN');
    expect(await heard(game, 'settings')).toMatchObject({ muted: false, locale: 'zh-CN' });
    const config = (await press(game, 'get-config')).resolved;
    expect(config.locale).toBe('zh-CN');
    expect(config.items.map(({ sku, name }: { sku: string; name: string }) => ({ sku, name }))).toEqual(
      expect.arrayContaining([
        { sku: 'sdk-tour-badge', name: '导览徽章' },
        { sku: 'sdk-tour-coin', name: '导览币' },
      ]),
    );
    const link = new URL((await press(game, 'invite-link')).resolved);
    expect(link.pathname + link.search).toBe('/zh-CN/play/sdk-tour?p_level=3&p_from=tour');
  });

  test('opened outside the portal every call answers not_framed, and the page passes axe', async ({ page }) => {
    await openTour(page);
    const own = new URL((await hostedGameFrame(page, 'sdk-tour')).url());
    await page.goto(own.href);
    await expect(page.locator('#out-version')).toHaveText('1.2.0');
    await page.locator('#call-login').click();
    await expect(page.locator('#out-login')).toHaveAttribute('data-code', 'not_framed');
    await expect(page.locator('#log')).toContainText('Playport.login() → not_framed');
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
