import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (let i = 0; i < 4; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.addInitScript(() => {
    const log: string[] = ((window as any).__log = []);
    const note = (what: string) => log.push(`${Math.round(performance.now())} ${what} ${innerWidth}x${innerHeight} ${document.documentElement?.dataset.texts !== undefined ? 'T' : '-'}`);
    note('start');
    addEventListener('DOMContentLoaded', () => note('dcl'));
    addEventListener('resize', () => note('resize'));
    new PerformanceObserver((l) => { for (const e of l.getEntries() as any[]) note('shift ' + e.value.toFixed(3) + ' ' + JSON.stringify(e.sources.map((s: any) => [s.previousRect.y, s.currentRect.y, s.previousRect.height, s.currentRect.height]))); }).observe({ type: 'layout-shift', buffered: true });
  });
  const page = await ctx.newPage();
  await page.goto('http://localhost:3400/play/2048');
  await page.waitForTimeout(2500);
  const f = page.frames().find((x) => x.url().includes('/games/'));
  console.log(JSON.stringify(await f!.evaluate(() => [(window as any).__log, performance.getEntriesByType('resource').map((e: any) => [e.name.split('/').pop(), Math.round(e.startTime), Math.round(e.responseEnd), e.renderBlockingStatus])])));
  await ctx.close();
}
await browser.close();
