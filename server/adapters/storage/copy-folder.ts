import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { type FileStorage, isStorageKey } from './file-storage.ts';

/** What a copy of a folder into a storage did, and every file whose stored copy is not the same. */
export interface FolderCopyReport {
  files: number;
  copied: number;
  /** Already there with the same size and SHA-256. */
  skipped: number;
  /** Checked after copying: size and SHA-256 of what the storage returns, for every file. */
  verified: number;
  /** Files left out on purpose: unfinished uploads (a dot-folder such as .incoming) and temporary files being written. */
  ignored: string[];
  problems: { key: string; problem: string }[];
}

interface Digest {
  size: number;
  sha256: string;
}

async function digestOf(stream: Readable): Promise<Digest> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

async function storedDigest(storage: FileStorage, key: string): Promise<Digest | null> {
  const stream = await storage.getStream(key);
  return stream ? digestOf(stream) : null;
}

/** Runs `work` on every item, `width` at a time. */
async function eachLimited<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * Copies a folder's files into a storage under the same keys (decision 150: moving the folders into
 * the bucket), skipping those already there whole, then reads back EVERY file from the storage and
 * compares its size and SHA-256 with the folder's. Names that are not storage keys cannot be stored
 * and are problems; a dot-folder (unfinished uploads) and `.tmp` files are left out. With
 * `checkOnly`, nothing is copied: the check alone.
 */
export async function copyFolderToStorage(
  folder: string,
  target: FileStorage,
  options: { width?: number; progress?: (line: string) => void; checkOnly?: boolean } = {},
): Promise<FolderCopyReport> {
  const width = options.width ?? 4;
  const names = (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(folder.length + 1)
        .split(sep)
        .join('/'),
    );
  const report: FolderCopyReport = { files: 0, copied: 0, skipped: 0, verified: 0, ignored: [], problems: [] };
  const keys: string[] = [];
  for (const name of names.sort()) {
    if (name.split('/').some((segment) => segment.startsWith('.')) || name.endsWith('.tmp')) report.ignored.push(name);
    else if (!isStorageKey(name)) report.problems.push({ key: name, problem: 'not copied: the name is not a storage key (letters, digits, . _ - only)' });
    else keys.push(name);
  }
  report.files = keys.length;
  const local = new Map<string, Digest>();
  await eachLimited(keys, width, async (key) => {
    const digest = await digestOf(createReadStream(join(folder, key)));
    local.set(key, digest);
    if (options.checkOnly) return;
    const there = await target.stat(key);
    if (there?.size === digest.size) {
      const stored = await storedDigest(target, key);
      if (stored?.sha256 === digest.sha256) {
        report.skipped += 1;
        return;
      }
    }
    const bytes = await readFile(join(folder, key));
    await target.put(key, bytes);
    report.copied += 1;
    options.progress?.(`copied ${key} (${bytes.length} bytes)`);
  });
  await eachLimited(keys, width, async (key) => {
    const expected = local.get(key)!;
    const stored = await storedDigest(target, key);
    if (!stored) report.problems.push({ key, problem: 'missing in the storage' });
    else if (stored.size !== expected.size) report.problems.push({ key, problem: `size ${stored.size} in the storage, ${expected.size} in the folder` });
    else if (stored.sha256 !== expected.sha256) report.problems.push({ key, problem: 'SHA-256 differs from the folder' });
    else report.verified += 1;
  });
  report.problems.sort((a, b) => a.key.localeCompare(b.key));
  return report;
}
