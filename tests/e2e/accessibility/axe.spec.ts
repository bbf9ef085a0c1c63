import { AxeBuilder } from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import axe from 'axe-core';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { conflictingClassLists } from '../../support/class-conflicts.ts';
import { grantOperator } from '../../support/operators.ts';
import { newStudioWithDraftGame } from '../../support/studio.ts';
import { fillPath, LOCALE_PREFIXES, PAGE_TYPES, type PathSamples, pathSamples } from '../../support/page-types.ts';
import { useSession } from '../browser-session.ts';
import { expect, hostedGameFrame, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// axe-core on every page type in both locales on a desktop, the main ones (tagged @mobile) on a phone, with
// its experimental rules turned on and no rule left out: a serious or critical violation fails the
// test (decision 073). The phone runs in dark mode and the desktop in light, so contrast is
// checked in both colour schemes without a second walk.

const EXPERIMENTAL_RULES = Object.fromEntries(axe.getRules(['experimental']).map((rule) => [rule.ruleId, { enabled: true }]));
const FAILING_IMPACTS = new Set(['serious', 'critical']);
const PHONE_TYPES = new Set(['home', 'app detail', 'play', 'article', 'my area']);

/**
 * Runs axe on the page as it is now and fails on any serious or critical violation. Same-origin
 * frames only unless `crossOriginFrames`: that mode merges the frames' results in a new blank
 * page, several times slower, so only the play page (its game runs in an opaque-origin frame)
 * pays for it.
 */
async function expectNoSeriousViolations(page: Page, what: string, { crossOriginFrames = false } = {}): Promise<void> {
  // The same walk checks that no element's Tailwind utilities contradict each other (decision 078).
  const classLists = await page.locator('[class]').evaluateAll((elements) => elements.map((element) => element.getAttribute('class') ?? ''));
  expect(conflictingClassLists(classLists), `conflicting Tailwind utilities on ${what}`).toEqual([]);
  const results = await new AxeBuilder({ page })
    .options({ rules: EXPERIMENTAL_RULES, resultTypes: ['violations'] })
    .setLegacyMode(!crossOriginFrames)
    .analyze();
  const serious = results.violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary?.replaceAll('\n', ' ')}`),
    }));
  expect(serious, `serious or critical axe violations on ${what}`).toEqual([]);
}

/** Opens a page and waits until it is hydrated and its data has arrived, as a visitor reads it. */
async function openSettled(page: Page, path: string, status = 200): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(status);
  await hydrated(page);
  await page.waitForLoadState('networkidle');
}

// One member per worker, shared by the tests that need a signed-in page (module state is per worker).
let memberToken: Promise<string> | null = null;
const member = (request: APIRequestContext) =>
  (memberToken ??= newMember(request, uniqueUsername('axe'), 'axe-checker-Lantern-7').then((account) => account.token));

async function signIn(page: Page, request: APIRequestContext, baseURL: string): Promise<void> {
  await useSession(page.context(), baseURL, await member(request));
}

test.describe('accessibility (axe-core)', () => {
  let samples: PathSamples;
  test.beforeEach(async ({ page, request, isMobile }) => {
    await page.emulateMedia({ colorScheme: isMobile ? 'dark' : 'light' });
    samples = await pathSamples(request, () => member(request));
  });

  for (const type of PAGE_TYPES) {
    // On the phone, the page types whose layout differs most from the desktop's; the rest share it.
    const phone = PHONE_TYPES.has(type.name) ? ' @mobile' : '';
    for (const { locale, prefix } of type.unlocalised ? [LOCALE_PREFIXES[0]] : LOCALE_PREFIXES) {
      test(`${type.name} (${locale}) has no serious violation${phone}`, async ({ page, request, baseURL, problems }) => {
        // axe with every rule takes seconds per page on two cores; several pages make one test.
        test.slow();
        if (type.status) problems.allow(`status of ${type.status}`);
        for (const refusal of type.refusals ?? []) problems.allow(refusal);
        // axe reads every style sheet (its CSSOM preload) with fetch(), which the game frame's own
        // policy refuses (connect-src 'none', decision 033): the rules that need it skip the game.
        if (type.name === 'play') problems.allow(/connect-src 'none'|\/games\/.*\.css csp/);
        if (type.member) await signIn(page, request, baseURL!);
        for (const path of type.paths) {
          const url = await fillPath(path, prefix, samples);
          await openSettled(page, url, type.status);
          await expectNoSeriousViolations(page, url, { crossOriginFrames: type.name === 'play' });
        }
      });
    }
  }

  for (const { locale, prefix } of LOCALE_PREFIXES) {
    test(`header dialogs and menus (${locale}) have no serious violation @mobile`, async ({ page, isMobile }) => {
      test.slow();
      await openSettled(page, `${prefix}/about`);

      await page.getByTestId('header-sign-in').click();
      await expect(page.getByRole('dialog').getByTestId('login-list')).toBeVisible();
      await expectNoSeriousViolations(page, 'the login dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      if (isMobile) {
        await page.getByTestId('user-drawer-trigger').click();
        await expect(page.getByTestId('user-drawer')).toBeVisible();
        await expectNoSeriousViolations(page, 'the user drawer');
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('user-drawer')).toBeHidden();
        // On a phone the search box opens over the header.
        await page.getByTestId('header-search').getByRole('button').first().click();
      } else {
        await page.getByTestId('user-menu-trigger').click();
        await expect(page.getByTestId('user-menu')).toBeVisible();
        await expectNoSeriousViolations(page, 'the user menu');
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('user-menu')).toBeHidden();
      }

      await page.getByTestId('header-search-input').fill('a');
      await expect(page.getByTestId('search-suggestions').getByRole('option').first()).toBeVisible();
      await expectNoSeriousViolations(page, 'the search suggestions');
    });

    // Open: the language menu (a modal Radix dropdown) hides the page behind it with aria-hidden
    // while the page's links stay focusable (axe aria-hidden-focus, serious).
    test(`the language menu (${locale}) has no serious violation`, async ({ page }) => {
      await openSettled(page, `${prefix}/about`);
      await page.getByTestId('language-selector').click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectNoSeriousViolations(page, 'the language menu');
    });

    test(`a member's menu and switch-account dialog (${locale}) have no serious violation @mobile`, async ({ page, request, baseURL, isMobile }) => {
      test.slow();
      await signIn(page, request, baseURL!);
      await openSettled(page, `${prefix}/user`);
      const menu = page.getByTestId(isMobile ? 'user-drawer' : 'user-menu');
      await page.getByTestId(isMobile ? 'user-drawer-trigger' : 'user-menu-trigger').click();
      await expect(menu).toBeVisible();
      await expectNoSeriousViolations(page, "a member's menu");
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();

      await page.getByTestId('header-switch-account').click();
      await expect(page.getByRole('dialog').getByTestId('login-list')).toBeVisible();
      await expectNoSeriousViolations(page, 'the switch-account dialog');
    });
  }
});

// The Studio's and the Console's pages and the QA page, opened with their data: wide tables that scroll
// sideways on a phone and a QA log long enough to scroll must be reachable by keyboard, and the
// overview's cards named as they read (decision 121).
test.describe('accessibility of the Studio, the Console and the QA page (axe-core)', { tag: '@db' }, () => {
  test.beforeEach(async ({ page, isMobile }) => {
    await page.emulateMedia({ colorScheme: isMobile ? 'dark' : 'light' });
  });

  for (const { locale, prefix } of LOCALE_PREFIXES) {
    test(`Studio statistics and the QA log (${locale}) have no serious violation @mobile`, async ({ page, request, baseURL }) => {
      test.slow();
      const { member: developer, gameId } = await newStudioWithDraftGame(request, 'axe', 'axe-checker-Lantern-7');
      await useSession(page.context(), baseURL!, developer.token);
      await openSettled(page, `${prefix}/studio/games/${gameId}/stats?days=30`);
      await expect(page.locator('table').first()).toBeVisible();
      await expectNoSeriousViolations(page, 'Studio statistics');

      // The QA page's log, grown past its height by the game's own calls.
      await openSettled(page, `${prefix}/qa/2048`);
      const log = page.getByTestId('qa-log');
      await expect(log.locator('[data-testid="qa-log-entry"][data-method="login"]')).toHaveCount(1);
      const frame = await hostedGameFrame(page, '2048');
      await frame.evaluate(async () => {
        const sdk = (window as unknown as { Playport: { data: { get(key: string): Promise<unknown> } } }).Playport;
        for (let i = 0; i < 40; i++) await sdk.data.get('progress');
      });
      await expect.poll(() => log.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
      await expect(log).toHaveAttribute('tabindex', '0');
      await expectNoSeriousViolations(page, 'the QA page with a long log');
    });

    test(`Console overview, acquisition and audit (${locale}) have no serious violation @mobile`, async ({ page, request, baseURL }) => {
      test.slow();
      const operator = await newMember(request, uniqueUsername('axeop'), 'axe-checker-Lantern-7');
      await grantOperator(operator.userInfo.uid);
      // An audit entry to list: a member disabled with a reason.
      const someone = await newMember(request, uniqueUsername('axeaud'), 'axe-checker-Lantern-7');
      const disabled = await call(request, 'POST', `/console/members/${someone.userInfo.uid}/disable`, {
        token: operator.token,
        body: { reason: 'Checked by axe' },
      });
      expect(disabled.status).toBe(200);
      await useSession(page.context(), baseURL!, operator.token);

      await openSettled(page, `${prefix}/console`);
      await expect(page.getByTestId('overview-members')).not.toHaveText('…');
      await expectNoSeriousViolations(page, 'the Console overview');

      await openSettled(page, `${prefix}/console/acquisition`);
      await expect(page.getByTestId('acquisition-table').locator('tbody tr').first()).toBeVisible();
      await expectNoSeriousViolations(page, 'Console acquisition');

      await openSettled(page, `${prefix}/console/audit`);
      await expect(page.getByTestId('audit-entries').locator('tbody tr').first()).toBeVisible();
      await expectNoSeriousViolations(page, 'the Console audit log');
    });
  }
});
