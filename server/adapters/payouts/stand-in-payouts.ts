import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PayoutProvider, PayoutState, PayoutTransfer } from './payout-provider.ts';

/** One line of the stand-in's file. */
interface RecordedTransfer {
  key: string;
  reference: string;
  amountMinor: number;
  currency: string;
  receiver: string;
  at: string;
}

/**
 * Payouts for development and the journeys (never in production): each transfer is one JSON line
 * in a file, the same key answers the transfer recorded first, and every transfer is paid at once.
 */
export class StandInPayouts implements PayoutProvider {
  readonly method = 'stand-in' as const;
  readonly #file: string;
  /** Attempts in this process take turns, so that two with one key record one line. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  send(transfer: PayoutTransfer): Promise<{ reference: string }> {
    const attempt = this.#queue.then(async () => {
      const known = (await this.transfers()).find((t) => t.key === transfer.key);
      if (known) return { reference: known.reference };
      const recorded: RecordedTransfer = { ...transfer, reference: `st_${randomBytes(8).toString('hex')}`, at: new Date().toISOString() };
      await mkdir(dirname(this.#file), { recursive: true });
      await appendFile(this.#file, `${JSON.stringify(recorded)}\n`);
      return { reference: recorded.reference };
    });
    this.#queue = attempt.catch(() => undefined);
    return attempt;
  }

  async status(reference: string): Promise<PayoutState> {
    const known = (await this.transfers()).some((t) => t.reference === reference);
    return known ? { state: 'paid' } : { state: 'failed', reason: 'UNKNOWN_TRANSFER' };
  }

  /** Every transfer recorded so far, oldest first. */
  async transfers(): Promise<RecordedTransfer[]> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as RecordedTransfer);
  }
}
