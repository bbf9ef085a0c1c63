import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ContentChanges } from './content-changes.ts';

/** How long start-up waits for the subscription before it serves anyway (caches then expire by time). */
const LISTEN_WAIT_MS = 2000;

/**
 * Content changes shared through Redis pub/sub (REDIS_URL): every instance subscribes to one
 * channel per REDIS_PREFIX. Nothing is read from Redis on the request path; an announcement costs
 * one PUBLISH. A message lost while the connection was down is covered by treating every
 * (re)connection as a change, and by the caches' own expiry.
 */
export class RedisContentChanges implements ContentChanges {
  readonly #url: string;
  readonly #channel: string;
  /** Marks this process's own messages, which it has already applied. */
  readonly #origin = randomUUID();
  readonly #listeners: Array<() => void> = [];
  readonly #onError: (error: unknown) => void;
  #publisher: Redis | null = null;
  #subscriber: Redis | null = null;

  constructor(url: string, options: { prefix?: string; onError?: (error: unknown) => void } = {}) {
    this.#url = url;
    this.#channel = `playport:content-changed:${options.prefix ?? ''}`;
    this.#onError = options.onError ?? (() => undefined);
  }

  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  async listen(): Promise<void> {
    if (this.#subscriber) return;
    // No retry limit: a subscriber waits for Redis to come back rather than failing requests.
    const subscriber = new Redis(this.#url, { maxRetriesPerRequest: null, connectTimeout: 2000 });
    this.#subscriber = subscriber;
    subscriber.on('error', () => {
      // Reconnection is automatic; while Redis is away the caches fall back to their expiry.
    });
    subscriber.on('message', (_channel: string, origin: string) => {
      if (origin !== this.#origin) this.#notify();
    });
    // Announcements made while disconnected were missed: forget everything on each reconnection.
    let connectedBefore = false;
    subscriber.on('ready', () => {
      if (connectedBefore) this.#notify();
      connectedBefore = true;
    });
    const subscribed = subscriber.subscribe(this.#channel).then(
      () => undefined,
      (error: unknown) => this.#onError(error),
    );
    await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, LISTEN_WAIT_MS).unref())]);
  }

  async announce(): Promise<void> {
    this.#notify();
    this.#publisher ??= new Redis(this.#url, { maxRetriesPerRequest: 1, connectTimeout: 2000 }).on('error', () => undefined);
    try {
      await this.#publisher.publish(this.#channel, this.#origin);
    } catch (error) {
      // The other instances then see the change when their caches expire (30 s, pages 5 s).
      this.#onError(error);
    }
  }

  async close(): Promise<void> {
    const connections = [this.#publisher, this.#subscriber].filter((c): c is Redis => c !== null);
    this.#publisher = null;
    this.#subscriber = null;
    await Promise.all(connections.map((c) => (c.status === 'ready' ? c.quit().then(() => undefined) : Promise.resolve(c.disconnect()))));
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}
