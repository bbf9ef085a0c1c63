import { chromium } from '@playwright/test';
const url = process.argv[2] ?? 'http://localhost:3400/';
const runs = Number(process.argv[3] ?? 3);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const results: any[] = [];
for (let i = 0; i < runs; i++) {
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75, userAgent: process.env.UA ?? 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36' });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => { (window as any).__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) (window as any).__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true }); });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(6000);
  const r = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    const lt = (window as any).__lt as number[][];
    const tbt = lt.filter(([s]) => s >= fcp).reduce((a, [, d]) => a + Math.max(0, d - 50), 0);
    return { fcp: Math.round(fcp), tbt, nodes: document.querySelectorAll('*').length, tasks: lt.map(([s, d]) => `${s}:${d}`).join(' '), scripts: performance.getEntriesByType('resource').filter((e: any) => e.initiatorType === 'script' || e.name.endsWith('.js')).length };
  });
  results.push(r);
  await ctx.close();
}
await browser.close();
for (const r of results) console.log(JSON.stringify(r));
const tbts = results.map((r) => r.tbt).sort((a, b) => a - b);
console.log('median TBT', tbts[Math.floor(tbts.length / 2)]);
