/**
 * Tells every process that serves the site that imported content changed, so each drops what it
 * derived from the old content (the services' caches, the page cache). Decision 075.
 */
export interface ContentChanges {
  /** Runs `listener` whenever content changes, announced by this process or another. */
  onChange(listener: () => void): void;
  /** Starts hearing other processes' announcements; resolves once it hears them (or gave up waiting). */
  listen(): Promise<void>;
  /** Tells this process at once, and the others through the shared channel when there is one. */
  announce(): Promise<void>;
  close(): Promise<void>;
}

/** One process alone (no REDIS_URL): an announcement reaches this process's listeners only. */
export class LocalContentChanges implements ContentChanges {
  readonly #listeners: Array<() => void> = [];

  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  async listen(): Promise<void> {}

  async announce(): Promise<void> {
    for (const listener of this.#listeners) listener();
  }

  async close(): Promise<void> {}
}
