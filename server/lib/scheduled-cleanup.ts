import type { FastifyBaseLogger } from 'fastify';

const HOURLY = 60 * 60 * 1000;
/** The first run waits a little, so it never slows a start-up. */
const FIRST_RUN_MS = 60 * 1000;

/** A clean-up a service offers: deletes what is no longer needed and answers how many rows went. */
export interface CleanupTask {
  name: string;
  run: () => Promise<number>;
}

/**
 * Runs clean-ups every hour in this process, off the request path: unused guest accounts
 * (decision 054), passkey challenges nobody finished (decision 062), accounts closed 30 days ago
 * (decision 147). Several instances may run
 * them together: each deletes only rows that still match. A failure is logged and tried again
 * next time. The timers never keep the process alive. Returns a function that stops them.
 */
export function scheduleCleanups(tasks: CleanupTask[], log: FastifyBaseLogger, intervalMs = HOURLY): () => void {
  const run = async () => {
    for (const task of tasks) {
      try {
        const deleted = await task.run();
        if (deleted > 0) log.info({ deleted }, `${task.name} removed`);
      } catch (error) {
        log.warn({ err: error }, `${task.name} clean-up failed`);
      }
    }
  };
  const first = setTimeout(run, Math.min(FIRST_RUN_MS, intervalMs));
  const every = setInterval(run, intervalMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
