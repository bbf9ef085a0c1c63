import { randomBytes } from 'node:crypto';
import { type IncomingUploads, removeIncomingUpload } from '#server/adapters/storage/incoming-uploads.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { BuildUploadsRepository } from './build-uploads.repository.ts';

/** What a studio may have in flight, and when an unfinished upload is abandoned (decision 109). */
export interface UploadLimits {
  /** Uploads one studio may have open at once. */
  openPerStudio: number;
  /** Bytes one studio may announce in uploads per day (UTC), sent or not. */
  bytesPerStudioPerDay: number;
  /** An upload that received no piece for this long is removed. */
  expiryMs: number;
}

/**
 * A tus upload's object among the unfinished uploads: its game's id, a dash, 32 hex; and beside it
 * its info (`.json` in a folder, `.info` in a bucket) and, in a bucket, a piece too small to be a part yet (`.part`).
 */
const UPLOAD_NAME = /^(\d+-[0-9a-f]{32})(?:\.json|\.info|\.part)?$/;
const UPLOAD_SUFFIXES = ['', '.json', '.info', '.part'];
const MB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Unfinished uploads of builds (decision 109): each studio opens a bounded number at once and a
 * bounded number of bytes per day, and an upload that stops receiving pieces is removed by the
 * scheduled clean-up of any instance, with its file and its info file on the shared volume or bucket.
 */
export class BuildUploadsService {
  readonly #repository: BuildUploadsRepository;
  readonly #clock: Clock;
  readonly #incoming: IncomingUploads;
  readonly limits: UploadLimits;

  /** `incoming`: the unfinished uploads' store (a folder or the bucket, decision 150). */
  constructor(options: { repository: BuildUploadsRepository; clock: Clock; incoming: IncomingUploads; limits: UploadLimits }) {
    this.#repository = options.repository;
    this.#clock = options.clock;
    this.#incoming = options.incoming;
    this.limits = options.limits;
  }

  /**
   * Opens an upload of `bytes` for a studio's game and answers its id, or refuses with 429
   * `upload_limit` (`data.limit`: `open_uploads` or `daily_bytes`) and opens nothing.
   */
  async open(userId: number, appId: number, bytes: number): Promise<string> {
    const now = this.#clock.now();
    const id = `${appId}-${randomBytes(16).toString('hex')}`;
    const at = now.toISOString();
    const day = at.slice(0, 10);
    await this.#repository.open({ id, user_id: userId, app_id: appId, bytes, created_at: at, touched_at: at }, day, ({ openUploads, dayBytes }) => {
      const { openPerStudio, bytesPerStudioPerDay } = this.limits;
      if (openUploads >= openPerStudio) {
        throw new AppError('upload_limit', {
          messageKey: 'errors:uploadLimit.openUploads',
          values: { max: openPerStudio },
          data: { limit: 'open_uploads', max: openPerStudio, open: openUploads },
        });
      }
      if (dayBytes + bytes > bytesPerStudioPerDay) {
        const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
        throw new AppError('upload_limit', {
          messageKey: 'errors:uploadLimit.dailyBytes',
          values: { maxMb: Math.floor(bytesPerStudioPerDay / MB), usedMb: Math.ceil(dayBytes / MB) },
          data: { limit: 'daily_bytes', max: bytesPerStudioPerDay, used: dayBytes, requested: bytes },
          headers: { 'Retry-After': String(Math.ceil((tomorrow - now.getTime()) / 1000)) },
        });
      }
    });
    return id;
  }

  /** A piece is arriving: the upload must still be open (404 otherwise), and it is not idle any more. */
  async receiving(id: string): Promise<void> {
    if (!(await this.#repository.touch(id, this.#clock.now().toISOString()))) throw new AppError('not_found');
  }

  /** 404 unless the upload is open. */
  async requireOpen(id: string): Promise<void> {
    if (!(await this.#repository.exists(id))) throw new AppError('not_found');
  }

  /** Uploads open now, of every studio (the operators' metrics). */
  inProgress(): Promise<number> {
    return this.#repository.countOpen();
  }

  /** The upload is finished or abandoned: it no longer counts against its studio's open uploads. */
  async close(id: string): Promise<void> {
    await this.#repository.close(id);
  }

  /**
   * Removes the uploads that received nothing for the expiry time, and answers how many. Safe on
   * several instances sharing the folder and the database: an upload is closed in the database only
   * while still idle (a piece arriving on any instance touches it first, and a piece for a closed
   * upload is refused), only the instance that closed it removes the row, and removing files twice
   * is harmless. An upload whose file changed within the expiry time is being written and is kept.
   * Files no open upload names (left from before decision 109, or of a creation that failed) go
   * once they too are older than the expiry time.
   */
  async removeExpired(): Promise<number> {
    const cutoffMs = this.#clock.now().getTime() - this.limits.expiryMs;
    const cutoff = new Date(cutoffMs).toISOString();
    let removed = 0;
    for (const id of await this.#repository.idleSince(cutoff)) {
      if ((await this.#lastWriteMs(id)) >= cutoffMs) continue;
      if (!(await this.#repository.closeIfIdle(id, cutoff))) continue;
      await this.#removeFiles(id);
      removed += 1;
    }
    const names = await this.#incoming.files.list('');
    const ids = [...new Set(names.map((name) => UPLOAD_NAME.exec(name)?.[1]).filter((id) => id !== undefined))];
    const open = await this.#repository.openAmong(ids);
    for (const id of ids) {
      if (open.has(id) || (await this.#lastWriteMs(id)) >= cutoffMs) continue;
      await this.#removeFiles(id);
      removed += 1;
    }
    return removed;
  }

  /** The latest change of an upload's objects (ms), or -Infinity when none is there. */
  async #lastWriteMs(id: string): Promise<number> {
    const times = await Promise.all(UPLOAD_SUFFIXES.map(async (suffix) => (await this.#incoming.files.stat(`${id}${suffix}`))?.modifiedMs ?? -Infinity));
    return Math.max(...times);
  }

  /** The upload's every piece: in a bucket its multipart upload too, whose parts no object lists. */
  async #removeFiles(id: string): Promise<void> {
    await removeIncomingUpload(this.#incoming, id);
  }
}
