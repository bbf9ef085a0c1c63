import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What one hosted game may ship (docs/game-sdk.md, "Hosting"): in line with what other portals take
 * (CrazyGames: 250 MB in all, 1,500 files), with one file no larger than a browser caches comfortably.
 */
export const HOSTED_GAME_LIMITS = { totalBytes: 250 * 1024 * 1024, files: 1_500, fileBytes: 100 * 1024 * 1024 } as const;

/** A slug that can name a host: one DNS label, lowercase (decision 089). */
export const HOSTED_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Every way a game's folder breaks the limits, at once; links are refused, as they could reach outside it. */
export async function hostedGameProblems(
  folder: string,
  limits: { totalBytes: number; files: number; fileBytes: number } = HOSTED_GAME_LIMITS,
): Promise<string[]> {
  const problems: string[] = [];
  let files = 0;
  let total = 0;
  const walk = async (dir: string, relative: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) problems.push(`${path}: is a link; a game ships its files themselves`);
      else if (entry.isDirectory()) await walk(join(dir, entry.name), path);
      else if (entry.isFile()) {
        const { size } = await lstat(join(dir, entry.name));
        files += 1;
        total += size;
        if (size > limits.fileBytes) problems.push(`${path}: is ${megabytes(size)}, more than the ${megabytes(limits.fileBytes)} one file may have`);
      }
    }
  };
  await walk(folder, '');
  if (files > limits.files) problems.push(`has ${files} files, more than the ${limits.files} a game may have`);
  if (total > limits.totalBytes) problems.push(`has ${megabytes(total)} in all, more than the ${megabytes(limits.totalBytes)} a game may have`);
  return problems;
}
