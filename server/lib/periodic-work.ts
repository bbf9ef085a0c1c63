/**
 * A round of work run every so often in this process, off the request path (the webhook and mail
 * senders, the data archives): never two rounds at once, a failed round reported and tried again
 * next time, and a stop that waits for the round in flight. The timer never keeps the process alive.
 */
export class PeriodicWork {
  readonly #round: () => Promise<unknown>;
  #timer: ReturnType<typeof setInterval> | null = null;
  #running: Promise<unknown> | null = null;

  constructor(round: () => Promise<unknown>) {
    this.#round = round;
  }

  /** Runs a round every `intervalMs` until `stop()`. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#running) return;
      this.#running = this.#round()
        .catch(onError)
        .finally(() => {
          this.#running = null;
        });
    }, intervalMs);
    this.#timer.unref();
  }

  /** Stops and waits for the round in flight. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
