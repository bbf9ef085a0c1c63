import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import { createHmac, hkdfSync } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { DataExport } from '#common/api/member-data.schema.ts';
import type { FileStorage } from '#server/adapters/storage/file-storage.ts';
import { AppError } from '#server/lib/app-error.ts';
import { PeriodicWork } from '#server/lib/periodic-work.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { randomAlphanumeric, safeEqual } from '#server/lib/random.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { DataExportRow, DataExportsRepository } from './data-exports.repository.ts';
import { zipOf } from './export-archive.ts';

/**
 * One file of a member's data archive (decision 144): a name such as "orders.json" and what goes
 * into it as JSON. Never a secret: no password hash, token, key or code.
 */
export interface MemberDataFile {
  name: string;
  content: unknown;
}

/**
 * A feature's part of "Download my data": what its own tables hold about the member, as the files
 * it contributes. `server/services.ts` lists every feature whose tables hold personal data.
 */
export interface MemberDataSource {
  memberData(userId: number): Promise<MemberDataFile[]>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a ready archive is offered (issue: 7 days), then its file is deleted. */
export const EXPORT_OFFER_MS = 7 * DAY_MS;
/** A new request within this time of the last one gets that one back: an archive takes work, and one a day is plenty. */
const REQUEST_INTERVAL_MS = DAY_MS;
/** An instance preparing an archive holds it this long; past it (a crash), another takes it. */
const CLAIM_MS = 5 * 60 * 1000;
/** Attempts before a request is given up (then the member may ask again). */
const MAX_ATTEMPTS = 3;
const RETRY_AFTER_MS = [60 * 1000, 10 * 60 * 1000];

/**
 * "Download my data" (decision 144; GDPR articles 15 and 20): a member, or an operator on their
 * behalf, asks for an archive of everything Playport holds about them; it is prepared in the
 * background (the request is answered at once), kept in a folder of its own that nothing serves,
 * and offered for 7 days by a signed link.
 */
export class MemberDataService {
  readonly #repository: DataExportsRepository;
  readonly #sources: readonly MemberDataSource[];
  readonly #storage: FileStorage;
  readonly #clock: Clock;
  readonly #linkKey: Buffer;
  readonly #productName: string;
  readonly #sweeper = new PeriodicWork(() => this.prepareDue());
  /** Preparation started by a request in this process; awaited by tests and the shutdown. */
  #running: Promise<void> | null = null;

  constructor(deps: {
    repository: DataExportsRepository;
    sources: readonly MemberDataSource[];
    storage: FileStorage;
    clock: Clock;
    appSecret: string;
    productName: string;
  }) {
    this.#repository = deps.repository;
    this.#sources = deps.sources;
    this.#storage = deps.storage;
    this.#clock = deps.clock;
    this.#linkKey = Buffer.from(hkdfSync('sha256', deps.appSecret, 'playport', 'data-export-link', 32));
    this.#productName = deps.productName;
  }

  /** The member's requests, newest first, with the link of each archive on offer. */
  async exportsOf(caller: Caller): Promise<DataExport[]> {
    return (await this.#repository.ofMember(caller.userId, 10)).map((row) => this.#view(row));
  }

  /**
   * Asks for an archive of the caller's data. A request of the last 24 hours that is still pending
   * or on offer is answered instead of a new one (`created: false`).
   */
  async requestExport(caller: Caller): Promise<{ export: DataExport; created: boolean }> {
    return this.#request(caller.userId, null);
  }

  /**
   * An operator asks on a member's behalf (GDPR article 15 by mail or phone): always a new archive,
   * with `record` (the Console's audit entry) in the request's unit of work.
   */
  async requestExportFor(userId: number, operatorId: number, record: (unit: UnitOfWork, exportId: string) => Promise<void>): Promise<DataExport> {
    const id = randomAlphanumeric(24);
    await this.#repository.transaction(async (unit) => {
      await this.#repository.insert({ id, user_id: userId, requested_by: operatorId, created_at: isoNow(this.#clock) }, unit);
      await record(unit, id);
    });
    this.#startPreparing();
    return this.#view((await this.#repository.find(id))!);
  }

  /**
   * The account erasure's step (decision 147): the member's archive requests go in the erasure's
   * unit of work, and their files with them (a file whose row a rollback kept is one that 404s).
   */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    const keys = await this.#repository.eraseMember(member.id, unit);
    await Promise.all(keys.map((key) => this.#storage.delete(key)));
  }

  /** A member's requests for the Console (operators only: the caller is checked there). */
  async exportsOfMember(userId: number): Promise<DataExport[]> {
    return (await this.#repository.ofMember(userId, 10)).map((row) => this.#view(row));
  }

  /** How many requests wait to be prepared, for the Console's overview. */
  pendingCount(): Promise<number> {
    return this.#repository.countPending();
  }

  /**
   * The archive behind a signed link: its bytes as a stream and a file name. Anything that does not
   * hold (no such archive, a wrong signature, past its offer) is one 404.
   */
  async download(id: string, signature: string): Promise<{ stream: Readable; filename: string; size: number }> {
    const row = await this.#repository.find(id);
    const now = isoNow(this.#clock);
    if (!row || row.status !== 'ready' || !row.storage_key || !row.expires_at || row.expires_at <= now || !safeEqual(signature, this.#signature(row))) {
      throw new AppError('not_found');
    }
    const stream = await this.#storage.getStream(row.storage_key);
    if (!stream) throw new AppError('not_found');
    const day = (row.ready_at ?? row.created_at).slice(0, 10);
    return { stream, filename: `${this.#productName.replaceAll(/[^A-Za-z0-9_-]/g, '')}-data-${day}.zip`, size: row.size_bytes ?? 0 };
  }

  /**
   * Prepares pending archives until none is left (every instance runs it; a claim keeps each
   * request to one). A failed attempt is tried again later, three times in all.
   */
  async prepareDue(): Promise<number> {
    let prepared = 0;
    for (;;) {
      const now = this.#clock.now();
      const row = await this.#repository.claimNext(now.toISOString(), new Date(now.getTime() + CLAIM_MS).toISOString());
      if (!row) return prepared;
      try {
        await this.#prepare(row);
        prepared++;
      } catch (error) {
        const retry = row.attempts < MAX_ATTEMPTS ? new Date(this.#clock.now().getTime() + RETRY_AFTER_MS[row.attempts - 1]!).toISOString() : null;
        await this.#repository.markAttemptFailed(row.id, String(error instanceof Error ? error.message : error).slice(0, 500), retry);
      }
    }
  }

  /**
   * The hourly clean-up: deletes the files of archives past their offer, and any file whose request
   * is gone (its account was deleted, and the row with it) or was given up. Answers how many files went.
   */
  async removeExpired(): Promise<number> {
    const rows = await this.#repository.expiredBy(isoNow(this.#clock), 500);
    for (const row of rows) {
      if (row.storage_key) await this.#storage.delete(row.storage_key);
      await this.#repository.markExpired(row.id);
    }
    let orphans = 0;
    for (const key of await this.#storage.list('')) {
      const id = /^\d+\/([A-Za-z0-9]+)\.zip$/.exec(key)?.[1];
      const row = id ? await this.#repository.find(id) : undefined;
      // A pending request's file may be being written: it becomes ready, or is tried again.
      if (row && (row.status === 'pending' || (row.status === 'ready' && row.storage_key === key))) continue;
      await this.#storage.delete(key);
      orphans++;
    }
    return rows.length + orphans;
  }

  /** Looks for pending requests every `intervalMs` (a crash, a restart, a failed attempt due again) until `stop()`. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.#sweeper.start(intervalMs, onError);
  }

  /** Stops looking, and waits for the preparation under way. */
  async stop(): Promise<void> {
    await this.#sweeper.stop();
    await this.settled();
  }

  /** Resolves when the preparation a request started in this process has finished. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #request(userId: number, operatorId: number | null): Promise<{ export: DataExport; created: boolean }> {
    const now = this.#clock.now();
    const [latest] = await this.#repository.ofMember(userId, 1);
    const recent = latest && new Date(latest.created_at).getTime() > now.getTime() - REQUEST_INTERVAL_MS;
    if (latest && recent && (latest.status === 'pending' || latest.status === 'ready')) return { export: this.#view(latest), created: false };
    const id = randomAlphanumeric(24);
    await this.#repository.insert({ id, user_id: userId, requested_by: operatorId, created_at: now.toISOString() });
    this.#startPreparing();
    return { export: this.#view((await this.#repository.find(id))!), created: true };
  }

  /** Starts preparing in the background once the request is stored; the periodic run catches what this misses. */
  #startPreparing(): void {
    if (this.#running) return;
    this.#running = this.prepareDue()
      .then(() => undefined)
      // The periodic run tries again; the request is stored.
      .catch(() => undefined)
      .finally(() => {
        this.#running = null;
      });
  }

  async #prepare(row: DataExportRow): Promise<void> {
    const files = (await Promise.all(this.#sources.map((source) => source.memberData(row.user_id)))).flat();
    const made = this.#clock.now();
    const readme = readmeOf(this.#productName, made.toISOString(), files);
    const zip = await zipOf(
      [{ name: 'README.txt', content: readme }, ...files.map((file) => ({ name: file.name, content: `${JSON.stringify(file.content, null, 2)}\n` }))],
      made,
    );
    const key = `${row.user_id}/${row.id}.zip`;
    await this.#storage.put(key, zip);
    await this.#repository.markReady(row.id, {
      storage_key: key,
      size_bytes: zip.length,
      ready_at: made.toISOString(),
      expires_at: new Date(made.getTime() + EXPORT_OFFER_MS).toISOString(),
    });
  }

  #signature(row: Pick<DataExportRow, 'id' | 'user_id' | 'expires_at'>): string {
    return createHmac('sha256', this.#linkKey).update(`${row.id}:${row.user_id}:${row.expires_at}`).digest('hex');
  }

  #view(row: DataExportRow): DataExport {
    const offered = row.status === 'ready' && row.expires_at !== null && row.expires_at > isoNow(this.#clock);
    return {
      id: row.id,
      status: row.status === 'ready' && !offered ? 'expired' : row.status,
      requestedAt: row.created_at,
      byOperator: row.requested_by !== null,
      readyAt: row.ready_at,
      expiresAt: row.expires_at,
      sizeBytes: row.size_bytes,
      downloadUrl: offered ? `/serve/api/user/data-exports/${row.id}/file?signature=${this.#signature(row)}` : null,
    };
  }
}

/** The archive's first file: what it is and what each file holds. */
function readmeOf(productName: string, madeAt: string, files: MemberDataFile[]): string {
  return [
    `${productName}: your data, as held on ${madeAt}.`,
    '',
    'Each .json file holds one kind of data (UTF-8 JSON, times in ISO-8601 UTC).',
    'Sign-in secrets (password hashes, session tokens, passkey keys, codes) are never included.',
    'Cookie and consent choices are kept in your browser, not on our servers, so they are not here.',
    '',
    'Files:',
    ...files.map((file) => `- ${file.name}: ${Array.isArray(file.content) ? `${file.content.length} entries` : 'one record'}`),
    '',
  ].join('\n');
}
