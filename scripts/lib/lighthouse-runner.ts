// Lighthouse 13 on the running portal, shared by `npm run lighthouse` and `npm run bench`.
// Lighthouse 12 removed the PWA audits, so the installability check is added here: Chromium's
// own verdict (Page.getInstallabilityErrors, what the former installable-manifest audit read).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { Audit, Gatherer } from 'lighthouse';

interface InstallabilityError {
  errorId: string;
}

class Installability extends Gatherer {
  override meta: Gatherer['meta'] = { supportedModes: ['navigation'] };

  override async getArtifact(context: Parameters<Gatherer['getArtifact']>[0]) {
    // The manifest is fetched after load; ask until the answer is settled (about two seconds at most).
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

const CONFIG = {
  extends: 'lighthouse:default',
  artifacts: [{ id: 'Installability', gatherer: { implementation: Installability } }],
  audits: [{ implementation: InstallableApp }],
  categories: { installable: { title: 'Installable', auditRefs: [{ id: 'installable-app', weight: 1 }] } },
  settings: { onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo', 'installable'] },
};

/** One page's figures: category scores (0–100), metrics in ms, transfer sizes in bytes. */
export interface LighthouseFigures {
  path: string;
  scores: Record<string, number>;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  scriptBytes: number;
  stylesheetBytes: number;
  installability: string;
  /** The SEO audits that did not pass (the play page's deliberate `noindex` fails only `is-crawlable`). */
  seoFailures: string[];
  /** Lighthouse's measure of the machine's speed (higher is faster): figures compare only between close indexes. */
  benchmarkIndex: number;
  /** The CPU slowdown the run used (Lighthouse's mobile default is 4). */
  cpuMultiplier: number;
  /**
   * The game's own work, reported apart: the CPU time of the main thread of the process its frame
   * runs in (the games origin is another site, decision 089) after the page's first paint, in ms.
   * Lighthouse's own breakdown leaves that process out.
   */
  gameCpuMs: number;
  /**
   * The page's main thread after the first paint, by CPU time rather than wall-clock time: its
   * tasks' CPU time, and the blocking time those tasks would give at the run's slowdown. On a host
   * whose cores are shared (the browser's processes, the game's, the server), a task's wall-clock
   * length includes the time it waited for a core, and Lighthouse multiplies that too.
   */
  mainThreadCpuMs: number;
  cpuBlockingMs: number;
  /** Why a metric could not be measured (Lighthouse then scores performance 0), when it could not. */
  problem?: string;
}

/** Lighthouse's mobile preset slows the CPU four times, which stands for its reference phone on its reference machine. */
export const DEFAULT_CPU_MULTIPLIER = 4;

/**
 * The CPU slowdown that makes this host stand for Lighthouse's reference phone, from the host's
 * benchmark index, as Lighthouse documents the calibration (docs/throttling.md, "CPU throttling",
 * and its CPU throttling calculator): 150 is no slowdown, 800 twice, 1,300 three times, and one
 * more for each 233 above. Figures from machines of different speeds then compare.
 */
export function calibratedCpuMultiplier(benchmarkIndex: number): number {
  const multiplier =
    benchmarkIndex >= 1300 ? 3 + (benchmarkIndex - 1300) / 233 : benchmarkIndex >= 800 ? 2 + (benchmarkIndex - 800) / 500 : 1 + (benchmarkIndex - 150) / 650;
  return Math.round(Math.max(1, multiplier) * 10) / 10;
}

/**
 * Runs Lighthouse (mobile preset unless `desktop`) on each path of `origin`, one Chromium for all;
 * with `cpuMultiplier`, the CPU is slowed that many times instead of the preset's four.
 */
export async function runLighthouse(
  origin: string,
  paths: string[],
  options: { desktop?: boolean; cpuMultiplier?: number; gamesHost?: string } = {},
): Promise<LighthouseFigures[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const figures: LighthouseFigures[] = [];
    for (const path of paths) {
      const flags = {
        port: chrome.port,
        output: 'json' as const,
        logLevel: 'error' as const,
        ...(options.desktop ? { formFactor: 'desktop' as const, screenEmulation: { disabled: true } } : {}),
        ...(options.cpuMultiplier ? { throttling: { cpuSlowdownMultiplier: options.cpuMultiplier } } : {}),
      };
      const { lhr, artifacts } = (await lighthouse(new URL(path, origin).href, flags, CONFIG as never))!;
      const cpuMultiplier = lhr.configSettings.throttling.cpuSlowdownMultiplier ?? DEFAULT_CPU_MULTIPLIER;
      const mainThread = mainThreadAfterPaint(
        (artifacts as { Trace?: { traceEvents: TraceEvent[] } }).Trace?.traceEvents ?? [],
        cpuMultiplier,
        options.gamesHost,
      );
      const transfer = (lhr.audits['resource-summary']?.details as { items?: Array<{ resourceType: string; transferSize: number }> } | undefined)?.items ?? [];
      figures.push({
        path,
        scores: Object.fromEntries(Object.values(lhr.categories).map((category) => [category.id, Math.round((category.score ?? 0) * 100)])),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
        cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
        tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
        scriptBytes: transfer.find((item) => item.resourceType === 'script')?.transferSize ?? 0,
        stylesheetBytes: transfer.find((item) => item.resourceType === 'stylesheet')?.transferSize ?? 0,
        installability: String(lhr.audits['installable-app']?.displayValue ?? ''),
        seoFailures: (lhr.categories.seo?.auditRefs ?? []).filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id),
        benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? 0),
        cpuMultiplier,
        ...mainThread,
        problem: lhr.runtimeError?.message ?? lhr.audits['largest-contentful-paint']?.errorMessage ?? undefined,
      });
    }
    return figures;
  } finally {
    chrome.kill();
  }
}

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: {
    frame?: string;
    name?: string;
    data?: { frames?: Array<{ frame: string; isOutermostMainFrame?: boolean; processId?: number }>; url?: string; processId?: number };
  };
}

const cpuOf = (task: TraceEvent) => (task.tdur ?? 0) / 1000;
const sum = (list: number[]) => list.reduce((total, ms) => total + ms, 0);

/** Lighthouse's long-task threshold: a task blocks for what it lasts beyond 50 ms. */
const BLOCKING_THRESHOLD_MS = 50;

/**
 * The main frame's main-thread tasks after its first contentful paint, by CPU time (`tdur`), at
 * `cpuMultiplier`; and the CPU time of the main threads of the processes that committed a frame of
 * `gamesHost` (a game's own subdomain), over the same span.
 */
export function mainThreadAfterPaint(
  events: TraceEvent[],
  cpuMultiplier: number,
  gamesHost?: string,
): { mainThreadCpuMs: number; cpuBlockingMs: number; gameCpuMs: number } {
  const started = events.find((event) => event.name === 'TracingStartedInBrowser');
  const mainFrame = started?.args?.data?.frames?.find((frame) => frame.isOutermostMainFrame);
  // The paint is recorded on the main thread of the process the page was committed in.
  const paint = mainFrame && events.find((event) => event.name === 'firstContentfulPaint' && event.args?.frame === mainFrame.frame);
  if (!paint) return { mainThreadCpuMs: 0, cpuBlockingMs: 0, gameCpuMs: 0 };
  const tasksAfterPaint = (pid: number, tid: number) =>
    events.filter((event) => event.name === 'RunTask' && event.ph === 'X' && event.pid === pid && event.tid === tid && event.ts >= paint.ts);
  const cpu = tasksAfterPaint(paint.pid, paint.tid).map(cpuOf);
  const onGamesHost = (url: string | undefined) =>
    gamesHost !== undefined && url !== undefined && URL.canParse(url) && new URL(url).hostname.endsWith(`.${gamesHost}`);
  const gamePids = new Set(
    events.filter((event) => event.name === 'FrameCommittedInBrowser' && onGamesHost(event.args?.data?.url)).map((event) => event.args!.data!.processId!),
  );
  const gameMainThreads = events.filter((event) => event.name === 'thread_name' && gamePids.has(event.pid) && event.args?.name === 'CrRendererMain');
  const gameCpu = gameMainThreads.flatMap((thread) => tasksAfterPaint(thread.pid, thread.tid)).map(cpuOf);
  return {
    mainThreadCpuMs: Math.round(sum(cpu)),
    cpuBlockingMs: Math.round(sum(cpu.map((ms) => Math.max(0, ms * cpuMultiplier - BLOCKING_THRESHOLD_MS)))),
    gameCpuMs: Math.round(sum(gameCpu)),
  };
}

/** One line per page, for the terminal. */
export function describeFigures(figures: LighthouseFigures): string {
  const scores = Object.entries(figures.scores).map(([id, score]) => `${id} ${score}`);
  return `${figures.path}: ${scores.join(' · ')} · LCP ${figures.lcpMs} ms · CLS ${figures.cls.toFixed(3)} · TBT ${figures.tbtMs} ms · JS ${Math.round(figures.scriptBytes / 1024)} KB · CSS ${Math.round(figures.stylesheetBytes / 1024)} KB · ${figures.installability} · machine ${figures.benchmarkIndex}, CPU ×${figures.cpuMultiplier} · main thread after FCP ${figures.mainThreadCpuMs} ms of CPU, TBT by CPU time ${figures.cpuBlockingMs} ms${figures.gameCpuMs ? ` · the game's own main thread ${figures.gameCpuMs} ms of CPU` : ''}${figures.problem ? ` · ${figures.problem}` : ''}`;
}
