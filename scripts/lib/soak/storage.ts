// Where the soak run's two instances keep their files, and its "storage stopped" fault: a bucket
// of the local S3 stand-in (decision 150; the default), or a folder both instances share.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startS3StandIn } from '../../../server/testing/s3-stand-in.ts';

export interface SoakStorage {
  /** What each instance's environment needs to use this storage. */
  env: Record<string, string>;
  /** Makes the storage unavailable: every read and write of a stored file fails until start(). */
  stop: () => Promise<void>;
  /** Makes it available again, with everything it held before stop(). */
  start: () => Promise<void>;
  /** Removes what it holds (at the end of the run). */
  remove: () => Promise<void>;
}

/**
 * A folder every instance shares, as on one machine or a network mount. Stopped, the folder is
 * moved aside and a plain file takes its place, so that every open, read, write and mkdir under
 * it fails (ENOTDIR), as a mount that went away fails; file permissions would not stop root.
 */
export async function startFolderStorage(options: { directory: string }): Promise<SoakStorage> {
  const root = options.directory;
  const aside = `${root}.stopped`;
  mkdirSync(join(root, 'uploads'), { recursive: true });
  mkdirSync(join(root, 'builds'), { recursive: true });
  return {
    env: { UPLOAD_DIR: join(root, 'uploads'), BUILDS_DIR: join(root, 'builds') },
    stop: async () => {
      renameSync(root, aside);
      writeFileSync(root, 'storage stopped\n');
    },
    start: async () => {
      if (!existsSync(aside)) return;
      rmSync(root, { force: true });
      renameSync(aside, root);
    },
    remove: async () => {
      rmSync(root, { recursive: true, force: true });
      rmSync(aside, { recursive: true, force: true });
    },
  };
}

/**
 * A bucket of the local S3 stand-in (decision 150), as instances on several machines would use
 * object storage. Stopped, the stand-in stops listening: every request to the bucket is refused
 * until start() listens again on the same port and folder, with every object it held.
 */
export async function startObjectStorage(options: { directory: string; port: number }): Promise<SoakStorage> {
  const directory = options.directory;
  let standIn: Awaited<ReturnType<typeof startS3StandIn>> | null = await startS3StandIn({ port: options.port, directory, bucket: 'soak' });
  return {
    env: standIn.env,
    stop: async () => {
      await standIn?.stop();
      standIn = null;
    },
    start: async () => {
      standIn ??= await startS3StandIn({ port: options.port, directory, bucket: 'soak' });
    },
    remove: async () => {
      await standIn?.stop();
      standIn = null;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
