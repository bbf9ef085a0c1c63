import type { FastifyBaseLogger } from 'fastify';
import type { AccountsService } from './accounts.service.ts';

const HOURLY = 60 * 60 * 1000;
/** The first run waits a little, so it never slows a start-up. */
const FIRST_RUN_MS = 60 * 1000;

/**
 * Runs the clean-up of unused guest accounts every hour in this process (decision 054). Several
 * instances may run it together: each batch deletes only rows that still match. The timers never
 * keep the process alive. Returns a function that stops it.
 */
export function scheduleGuestCleanup(accounts: Pick<AccountsService, 'removeUnusedGuests'>, log: FastifyBaseLogger, intervalMs = HOURLY): () => void {
  const run = async () => {
    try {
      const deleted = await accounts.removeUnusedGuests();
      if (deleted > 0) log.info({ deleted }, 'unused guest accounts removed');
    } catch (error) {
      log.warn({ err: error }, 'unused guest clean-up failed');
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
