import { chromium, request as pwRequest } from '@playwright/test';
import { call, newGuest, newMember } from '../tests/support/accounts.ts';
const base = 'http://localhost:3400';
const request = await pwRequest.newContext({ baseURL: base });
const mode = process.argv[2] ?? 'member';
const account = mode === 'member' ? await newMember(request, 'cls' + Date.now().toString(36), 'Zebra-Cactus-Window-77') : await newGuest(request);
if (mode === 'member') await call(request, 'PATCH', '/member/nickname/', { token: account.token, body: { nickname: 'Somebody Longname' } });
const list = (await call(request, 'GET', '/app/list/?limit=2')).data.items;
await call(request, 'POST', '/member/played/', { token: account.token, body: { app_id: list[1].id } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const vp of [{ width: 1280, height: 800 }, { width: 412, height: 823 }]) {
  const ctx = await browser.newContext({ baseURL: base, viewport: vp });
  await ctx.addCookies([{ name: 'token', value: encodeURIComponent(account.token), url: base }]);
  await ctx.addInitScript(() => { (window as any).__shifts = []; new PerformanceObserver((l) => { for (const e of l.getEntries() as any[]) if (!e.hadRecentInput) (window as any).__shifts.push({ v: e.value, t: Math.round(e.startTime), src: e.sources?.map((s: any) => s.node?.outerHTML?.slice(0, 100)) }); }).observe({ type: 'layout-shift', buffered: true }); });
  const page = await ctx.newPage();
  await page.goto(process.argv[3] ?? '/');
  await page.waitForTimeout(3000);
  const shifts: any[] = []; for (const f of page.frames()) { try { const s = await f.evaluate(() => (window as any).__shifts ?? []); shifts.push(...s.map((x: any) => ({ ...x, frame: f.url().slice(0, 60) }))); } catch (e) { console.log('frame', f.url().slice(0,60), String(e).slice(0, 80)); } }
  console.log(mode, vp.width, 'CLS', shifts.reduce((a: number, s: any) => a + s.v, 0).toFixed(4), JSON.stringify(shifts).slice(0, 1500));
  await ctx.close();
}
await browser.close(); await request.dispose();
