// Lighthouse on the running portal: `npm run lighthouse -- [--url http://localhost:3000] [path …]`.
// Prints each page's category scores and whether Chromium finds the app installable. Lighthouse 13
// no longer has PWA audits, so the installability check is added here: the browser's own verdict
// (Page.getInstallabilityErrors, what the former installable-manifest audit read) as an audit.
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { Audit, Gatherer } from 'lighthouse';

interface InstallabilityError {
  errorId: string;
}

class Installability extends Gatherer {
  override meta: Gatherer['meta'] = { supportedModes: ['navigation'] };

  override async getArtifact(context: Parameters<Gatherer['getArtifact']>[0]) {
    // The manifest is fetched after load; ask until the answer is settled (about a second at most).
    let errors: InstallabilityError[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      ({ installabilityErrors: errors } = await context.driver.defaultSession.sendCommand('Page.getInstallabilityErrors'));
      if (errors.length === 0) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    // Lighthouse's artifact types list only its own artifacts; this one is read back by the audit below.
    return errors as never;
  }
}

class InstallableApp extends Audit {
  static override get meta() {
    return {
      id: 'installable-app',
      title: 'The browser offers to install the app',
      failureTitle: 'The browser does not offer to install the app',
      description: "Chromium's installability check: manifest, icons, start URL and scope.",
      requiredArtifacts: ['Installability'],
    } as unknown as typeof Audit.meta;
  }

  static override audit(artifacts: Parameters<typeof Audit.audit>[0]) {
    const errors = (artifacts as unknown as { Installability: InstallabilityError[] }).Installability;
    return { score: errors.length === 0 ? 1 : 0, displayValue: errors.map((e) => e.errorId).join(', ') || 'installable' };
  }
}

const config = {
  extends: 'lighthouse:default',
  artifacts: [{ id: 'Installability', gatherer: { implementation: Installability } }],
  audits: [{ implementation: InstallableApp }],
  categories: { installable: { title: 'Installable', auditRefs: [{ id: 'installable-app', weight: 1 }] } },
  settings: { onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo', 'installable'] },
};

const { values, positionals } = parseArgs({ allowPositionals: true, options: { url: { type: 'string', default: 'http://localhost:3000' }, desktop: { type: 'boolean', default: false } } });
const paths = positionals.length > 0 ? positionals : ['/', '/zh-CN'];
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
let failed = false;
try {
  for (const path of paths) {
    const result = await lighthouse(new URL(path, values.url).href, { port: chrome.port, output: 'json', logLevel: 'error', ...(values.desktop ? { formFactor: 'desktop', screenEmulation: { disabled: true } } : {}) }, config as never);
    const lhr = result!.lhr;
    const scores = Object.values(lhr.categories).map((category) => `${category.id} ${Math.round((category.score ?? 0) * 100)}`);
    const installable = lhr.audits['installable-app']!;
    console.log(`${path}: ${scores.join(' · ')} · LCP ${Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0)} ms · CLS ${(lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)} · ${installable.displayValue}`);
    if (installable.score !== 1) failed = true;
  }
} finally {
  chrome.kill();
}
process.exit(failed ? 1 : 0);
