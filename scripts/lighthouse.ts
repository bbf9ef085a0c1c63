// Lighthouse on the running portal: `npm run lighthouse -- [--url http://localhost:3000] [--desktop] [--cpu N] [path …]`
// (--cpu: the CPU slowdown instead of the preset's 4; `npm run bench` calibrates it from the machine).
// Prints each page's category scores, LCP, CLS, TBT, the JavaScript and CSS transferred, and
// whether Chromium finds the app installable; exits 1 when a page is not installable.
import { parseArgs } from 'node:util';
import { describeFigures, runLighthouse } from './lib/lighthouse-runner.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { url: { type: 'string', default: 'http://localhost:3000' }, desktop: { type: 'boolean', default: false }, cpu: { type: 'string' } },
});
const figures = await runLighthouse(values.url, positionals.length > 0 ? positionals : ['/', '/zh-CN'], {
  desktop: values.desktop,
  gamesHost: 'games.localhost',
  ...(values.cpu ? { cpuMultiplier: Number(values.cpu) } : {}),
});
for (const page of figures) console.log(describeFigures(page));
process.exit(figures.every((page) => page.scores.installable === 100) ? 0 : 1);
