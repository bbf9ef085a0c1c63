import { randomBytes } from 'node:crypto';
import { expect, test } from '../fixtures.ts';
import { type Account, call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';

// Pages other than the personal ones are rendered once for everybody and cached (decision 066);
// who is signed in is filled in by the browser. One visitor must never see another's data.
test.describe('pages shared by everyone', { tag: '@db' }, () => {
  test('two signed-in visitors get the same cached page, and each sees only their own nickname and recently played', async ({ browser, request, baseURL }) => {
    test.slow();
    const apps = (await call<{ items: Array<{ id: number; title: string }> }>(request, 'GET', '/app/list/?limit=2')).data.items;
    const visitors: Array<{ account: Account; nickname: string; played: string }> = [];
    for (const [index, name] of ['Alice', 'Bruno'].entries()) {
      const account = await newMember(request, uniqueUsername(name.toLowerCase()), `personal-data-${name}-1`);
      const nickname = `${name} ${randomBytes(3).toString('hex')}`;
      expect((await call(request, 'PATCH', '/member/nickname/', { token: account.token, body: { nickname } })).status).toBe(200);
      expect((await call(request, 'POST', '/member/played/', { token: account.token, body: { app_id: apps[index]!.id } })).status).toBe(200);
      visitors.push({ account, nickname, played: apps[index]!.title });
    }

    // Both browsers are made first, then open the home page one right after the other: the cache
    // keeps a page for a few seconds, which a browser's start-up on a busy machine can outlast.
    const browsers = [];
    for (const visitor of visitors) {
      const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
      await useSession(context, baseURL!, visitor.account.token);
      // Each shift is kept with the elements that moved, so a failure names them.
      await context.addInitScript(() => {
        type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
        const shifts: Array<{ value: number; moved: string[] }> = ((window as unknown as { layoutShifts: unknown[] }).layoutShifts = []);
        // oxlint-disable-next-line unicorn/consistent-function-scoping -- an init script runs alone in the page: it cannot reach the file's scope
        const describe = (node: Node | null | undefined) => {
          if (!(node instanceof Element)) return node?.nodeName ?? 'gone';
          const tested = node.closest('[data-testid]');
          return `${node.tagName.toLowerCase()}${node.className && typeof node.className === 'string' ? `.${node.className.split(' ').slice(0, 3).join('.')}` : ''}${tested ? ` in [data-testid=${tested.getAttribute('data-testid')}]` : ''}`;
        };
        // oxlint-disable-next-line unicorn/consistent-function-scoping -- as above
        const box = (rect: DOMRectReadOnly) => `${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}×${Math.round(rect.height)}`;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Source[] }>)
            if (!entry.hadRecentInput)
              shifts.push({
                value: entry.value,
                moved: entry.sources.map((source) => `${describe(source.node)}: ${box(source.previousRect)} → ${box(source.currentRect)}`),
              });
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // A returning member: the browser has shown a page of theirs before and kept who they are,
      // which lets the first paint of the next page hold the member's places (account-hint.ts).
      const page = await context.newPage();
      await page.goto('/categories');
      await page.waitForFunction(() => localStorage.getItem('playport:user')?.includes('"isGuest":false'));
      await page.evaluate(() => (window as unknown as { layoutShifts: unknown[] }).layoutShifts.splice(0));
      browsers.push({ context, page });
    }
    const opened = [];
    for (const { context, page } of browsers) {
      // Once the answer arrives, not the load event: the second request must come within the cache's few seconds.
      const response = (await page.goto('/', { waitUntil: 'commit' }))!;
      opened.push({ context, page, cache: response.headers()['x-page-cache'], html: await response.text() });
    }
    for (const [index, visitor] of visitors.entries()) {
      const other = visitors[1 - index]!;
      const { context, page, html } = opened[index]!;
      // The HTML is the same for everybody: nobody's name is in it.
      expect(html).not.toContain(visitor.nickname);
      expect(html).not.toContain(other.nickname);
      await expect(page.getByTestId('header-user-name')).toHaveText(visitor.nickname);
      const recent = page.getByTestId('row-recently-played');
      await expect(recent).toContainText(visitor.played);
      await expect(recent).not.toContainText(other.played);
      // Filling them in moved nothing on screen (before any input).
      const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: Array<{ value: number; moved: string[] }> }).layoutShifts);
      const shifted = shifts.reduce((sum, shift) => sum + shift.value, 0);
      expect(shifted, `layout shifts: ${JSON.stringify(shifts, null, 1)}`).toBeLessThan(0.01);
      await page.getByTestId('user-menu-trigger').click();
      await expect(page.getByTestId('user-name')).toHaveText(visitor.nickname);
      await expect(page.getByText(other.nickname)).toHaveCount(0);
      await context.close();
    }
    // The second visitor was served the page cached for the first.
    expect(opened[1]!.cache).toBe('hit');
  });
});
