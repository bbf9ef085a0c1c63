import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { writeFileSync } from 'node:fs';
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
const url = process.argv[2] ?? 'http://localhost:3400/';
const { lhr } = (await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }))!;
chrome.kill();
writeFileSync('/tmp/lhr.json', JSON.stringify(lhr));
const a = lhr.audits;
console.log('perf', lhr.categories.performance.score, 'TBT', a['total-blocking-time'].numericValue, 'LCP', a['largest-contentful-paint'].numericValue, 'FCP', a['first-contentful-paint'].numericValue, 'SI', a['speed-index'].numericValue, 'CLS', a['cumulative-layout-shift'].numericValue);
const reqs = (a['network-requests'].details as any).items.filter((i: any) => i.resourceType === 'Script');
let total = 0;
for (const r of reqs) { total += r.transferSize; console.log(String(r.transferSize).padStart(7), Math.round(r.networkRequestTime), r.url.replace(url.replace(/\/$/, ''), '')); }
console.log('script total', total, reqs.length);
console.log('bootup', JSON.stringify((a['bootup-time'].details as any).items.slice(0, 8).map((i: any) => [i.url.slice(-50), Math.round(i.total), Math.round(i.scripting)])));
console.log('mainthread', JSON.stringify((a['mainthread-work-breakdown'].details as any).items.map((i: any) => [i.group, Math.round(i.duration)])));
console.log('long tasks', JSON.stringify((a['long-tasks']?.details as any)?.items?.slice(0, 10).map((i: any) => [i.url.slice(-40), Math.round(i.startTime), Math.round(i.duration)])));
console.log('dom', a['dom-size']?.displayValue);
