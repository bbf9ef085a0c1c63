import type { Page } from '@playwright/test';
import { newGuest, newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { afterDebounce, settledUser } from '../accounts/helpers.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Every main flow by keyboard alone (decision 071): Tab, Shift+Tab, Enter, Space, Escape and the
// arrows; text is typed into the control Tab reached. Every stop on the way must show where the
// focus is, and the stops come in the order the page reads.

// Sign-in hashes a password and the first focus of a deferred widget loads its code: seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

interface FocusStop {
  /** The control's accessible name as far as the page states it (label, aria-label or text). */
  name: string;
  testId: string | null;
  /** Whether the focused control draws a visible indicator: an outline or a ring of a visible colour. */
  visible: boolean;
  /** Whether it matches the selector asked about. */
  matches: boolean;
}

/** Describes the focused element in the page (or in the deferred widget the focus moved into). */
function focusStop(page: Page, selector = ':focus'): Promise<FocusStop | null> {
  return page.evaluate((wanted) => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- this function runs inside the page
    const opaque = (colour: string) => {
      const parts = /rgba?\(([^)]+)\)/
        .exec(colour)?.[1]
        ?.split(/[\s,/]+/)
        .filter(Boolean);
      return !parts || parts.length < 4 || Number(parts[3]) > 0;
    };
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && opaque(style.outlineColor);
    // A box-shadow ring: some layer of a visible colour with a non-zero length.
    const ring =
      style.boxShadow !== 'none' && style.boxShadow.split(/,(?![^(]*\))/).some((layer) => opaque(layer) && /\s[1-9]/.test(layer.replace(/rgba?\([^)]*\)/, '')));
    // Menu items show the keyboard's place by their highlight (Radix sets data-highlighted on the focused item).
    const highlighted = element.hasAttribute('data-highlighted') && opaque(style.backgroundColor);
    const labelled = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : null;
    const name = element.getAttribute('aria-label') ?? labelled ?? element.textContent ?? '';
    return {
      name: name.replace(/\s+/g, ' ').trim(),
      testId: element.getAttribute('data-testid'),
      visible: outline || ring || highlighted,
      matches: element.matches(wanted),
    };
  }, selector);
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `selector`, checking that every
 * stop on the way shows its focus. Answers the names of the stops, in order, the target last.
 */
async function tabTo(page: Page, selector: string, { max = 40, backwards = false } = {}): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const stop = await focusStop(page, selector);
    if (!stop) continue;
    names.push(stop.name);
    expect(stop.visible, `visible focus on "${stop.name}" (${stop.testId ?? 'no test id'})`).toBe(true);
    if (stop.matches) return names;
  }
  throw new Error(`${max} presses of Tab never reached ${selector}; the stops were: ${names.join(' | ')}`);
}

const byTestId = (id: string) => `[data-testid="${id}"]`;
const focused = (page: Page) => page.locator(':focus');

test.describe('keyboard alone', () => {
  test('skip link, header links in reading order, and search: type, choose a suggestion with the arrows, play', async ({ page, request, context, baseURL }) => {
    test.slow();
    await useSession(context, baseURL!, (await newGuest(request)).token);
    await page.goto('/');
    await hydrated(page);

    // The skip link is the first stop, visible when focused, and moves the focus into the content.
    expect(await tabTo(page, 'a[href="#main"]', { max: 1 })).toEqual(['Skip to content']);
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/#main');
    await page.keyboard.press('Tab');
    await expect(page.locator('main :focus')).toHaveCount(1);

    // From the top again: logo, the four links, then the search box, each with its focus shown.
    await page.goto('/');
    await hydrated(page);
    const stops = await tabTo(page, byTestId('header-search-input'));
    expect(stops).toEqual(['Skip to content', 'Playport home', 'Home', 'Categories', 'News', 'My area', 'Search games and apps']);

    await page.keyboard.type('20');
    const suggestions = page.getByRole('listbox');
    await expect(suggestions.getByRole('option').first()).toContainText('2048');
    await page.keyboard.press('ArrowDown');
    await expect(focused(page)).toHaveAttribute('aria-activedescendant', /option-0$/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/app/2048');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('2048');

    // Play now, then the game takes the arrows.
    await hydrated(page);
    await tabTo(page, byTestId('play-button'));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/play/2048');
    const game = page.frameLocator('[data-testid="game-frame"]');
    await expect(game.locator('body')).toHaveAttribute('data-state', /ready|playing/);
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) await page.keyboard.press(key);
    await expect.poll(async () => Number(await game.locator('body').getAttribute('data-moves'))).toBeGreaterThan(0);
  });

  test('open a game from the home page and mark it a favourite with Space', async ({ page, request, context, baseURL }) => {
    test.slow();
    await useSession(context, baseURL!, (await newGuest(request)).token);
    await page.goto('/');
    await hydrated(page);
    await tabTo(page, `main ${byTestId('app-tile')}`, { max: 60 });
    const href = await focused(page).getAttribute('href');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(href!);
    await hydrated(page);
    const heart = page.getByTestId('favourite-button');
    await expect(heart).toBeEnabled();
    await tabTo(page, byTestId('favourite-button'));
    await page.keyboard.press('Space');
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('toast').getByText('Added to your favourites')).toBeVisible();
    await expect(heart).toBeFocused();
  });

  test('the language menu opens, closes with Escape back on its button, and switches to Chinese with the arrows', async ({ page }) => {
    await page.goto('/article/news');
    await hydrated(page);
    const trigger = page.getByTestId('language-selector');
    await tabTo(page, byTestId('language-selector'));
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitemradio')).toHaveText(['English', '简体中文']);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(trigger).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(focused(page)).toHaveText('简体中文');
    expect((await focusStop(page))?.visible).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/zh-CN/article/news');
    await expect(page.getByRole('link', { name: '新闻' }).first()).toBeVisible();
  });

  test('sign in in the login dialog: focus stays inside, Escape returns it to the button, then the user menu', async ({ page, request }) => {
    test.slow();
    const username = uniqueUsername('keys');
    const member = await newMember(request, username, 'keyboard-only-42');
    await page.goto('/categories');
    await hydrated(page);
    await settledUser(page, request);
    const trigger = page.getByTestId('header-sign-in');
    await tabTo(page, byTestId('header-sign-in'));
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('login-dialog');
    await expect(dialog.getByRole('heading', { name: 'Sign in' })).toBeVisible();

    // Focus is trapped: forwards and backwards, every stop is inside the dialog.
    // The dialog has about a dozen stops: twenty presses each way go round it.
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press(key);
        const stop = await focusStop(page, `${byTestId('login-dialog')} *`);
        expect(stop?.matches, `focus inside the dialog after ${i + 1} × ${key}, on "${stop?.name}"`).toBe(true);
        expect(stop?.visible, `visible focus on "${stop?.name}" in the dialog`).toBe(true);
      }
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await tabTo(page, 'input[name="username"]');
    await page.keyboard.type(username);
    await tabTo(page, 'input[name="password"]');
    await page.keyboard.type('keyboard-only-42');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('toast')).toContainText(`Signed in as ${member.userInfo.nickname}`);
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL('/categories');

    // The user menu: opened with Enter, its entries reached with Tab, closed with Escape.
    const menuTrigger = page.getByTestId('user-menu-trigger');
    await tabTo(page, byTestId('user-menu-trigger'));
    await page.keyboard.press('Enter');
    const menu = page.getByTestId('user-menu');
    await expect(menu).toBeVisible();
    const entries = await tabTo(page, `${byTestId('user-menu')} a[href="/settings"]`, { max: 10 });
    expect(entries.slice(-4)).toEqual(['Profile', 'Social accounts', 'Switch account', 'Settings']);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(menuTrigger).toBeFocused();
  });

  test('change the nickname in the profile form and save, then sign out', async ({ page, context, request, baseURL }) => {
    test.slow();
    const member = await newMember(request, uniqueUsername('nick'), 'keyboard-nick-42');
    await useSession(context, baseURL!, member.token);
    await page.goto('/user/profile');
    await hydrated(page);
    await tabTo(page, '[data-profile-row="nickname"]');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/user/profile/nickname');
    await hydrated(page);
    await tabTo(page, 'input[name="nickname"]');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Key Runner');
    await tabTo(page, byTestId('profile-save'));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('toast')).toContainText('Nickname saved');
    await expect(page.getByTestId('header-user-name')).toHaveText('Key Runner');

    await page.goto('/user/profile');
    await hydrated(page);
    await tabTo(page, byTestId('profile-sign-out'), { max: 60 });
    await afterDebounce(page);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/user');
    // Signed out: the member's token is refused (the new guest the page then creates is another test's subject).
    await expect.poll(async () => (await request.get('/serve/api/member/info/', { headers: { Authorization: `Bearer ${member.token}` } })).status()).toBe(401);
  });

  test('read an article from the news list', async ({ page }) => {
    await page.goto('/article/news');
    await hydrated(page);
    await tabTo(page, byTestId('article-link'), { max: 60 });
    const href = await focused(page).getAttribute('href');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(href!);
    await expect(page.getByTestId('article-body')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});
