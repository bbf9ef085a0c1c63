import { promisify } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { isStorageKey } from '#server/adapters/storage/file-storage.ts';

/**
 * Reading an uploaded build (decision 097): every rule is checked on the whole archive before any
 * file is kept, and every problem found is answered at once.
 */

/** What a build's archive breaks; the Studio and the command line show each with its values. */
export type BuildProblemRule = 'archive' | 'declared' | 'entry' | 'total' | 'files' | 'file_size' | 'type' | 'path' | 'link' | 'ratio';

export interface BuildProblem {
  rule: BuildProblemRule;
  /** The file inside the archive it is about, when it is about one. */
  path?: string;
  values?: Record<string, string | number>;
}

export interface BuildLimits {
  totalBytes: number;
  files: number;
  fileBytes: number;
  /** Uncompressed bytes per compressed byte a file may claim or have (a zip bomb's is in the thousands). */
  ratio: number;
}

/** Compression this strong is only checked on files above this size: a small file of repeated bytes is harmless. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
/** The ratio a build's files may have: engines' output compresses 2 to 20 times; a zip bomb's thousands. */
export const BUILD_RATIO = 200;
/** The largest zip accepted, before a byte of it is: the files at their cap, plus room for the zip's own records. */
export function maxArchiveBytes(limits: BuildLimits): number {
  return limits.totalBytes + 16 * 1024 * 1024;
}

/** Types engines (Unity, Godot, Construct, Phaser, GameMaker, Defold) write in a web build, and .br/.gz of them. */
export const ALLOWED_EXTENSIONS = new Set([
  'html',
  'htm',
  'js',
  'mjs',
  'cjs',
  'map',
  'wasm',
  'data',
  'pck',
  'mem',
  'unityweb',
  'bundle',
  'json',
  'xml',
  'css',
  'txt',
  'csv',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'svg',
  'ico',
  'bmp',
  'ktx',
  'ktx2',
  'basis',
  'mp3',
  'ogg',
  'oga',
  'wav',
  'm4a',
  'aac',
  'opus',
  'flac',
  'weba',
  'webm',
  'mp4',
  'm4v',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'fnt',
  'glb',
  'gltf',
  'bin',
  'atlas',
  'tmx',
  'tsx',
  'ldtk',
]);
const COMPRESSED = new Set(['br', 'gz']);

/** A file the archive holds, checked and ready to store. */
export interface BuildFile {
  path: string;
  size: number;
}

export interface InspectedBuild {
  problems: BuildProblem[];
  /** The files as they will be stored (a single top folder holding index.html is removed). */
  files: BuildFile[];
  entryPath: string;
  totalBytes: number;
  /** The archive's prefix removed from every name ('' or "folder/"). */
  prefix: string;
}

const openZip = promisify<string, yauzl.Options, ZipFile>(yauzl.open);

/** The extension a file is judged by: `game.wasm.br` is a wasm file. */
function typeOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const parts = name.split('.');
  if (parts.length < 2) return '';
  const last = parts.at(-1)!;
  if (COMPRESSED.has(last) && parts.length >= 3) return parts.at(-2)!;
  return last;
}

/** A name's own problem when it could leave the build's folder, or cannot be a stored file's name. */
function pathProblem(name: string): string | null {
  if (name.includes('\\')) return 'backslash';
  if (name.startsWith('/')) return 'absolute';
  if (/^[A-Za-z]:/.test(name)) return 'drive';
  if (name.split('/').some((segment) => segment === '..' || segment === '.')) return 'parent';
  if (!isStorageKey(name)) return 'characters';
  return null;
}

/** Unix file type bits in the upper half of the external attributes: a symbolic link is 0o120000. */
function isLink(entry: Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

function entryName(entry: Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  // General purpose bit 11: the name is UTF-8; otherwise IBM code page 437, read here as Latin-1.
  return raw.toString((entry.generalPurposeBitFlag & 0x800) !== 0 ? 'utf8' : 'latin1');
}

/**
 * Checks an archive's table of contents against every rule (names, links, types, limits, declared
 * ratio, the entry document). Nothing is decompressed here; `readBuildFiles` checks the real sizes.
 */
export async function inspectBuildArchive(zipPath: string, archiveBytes: number, limits: BuildLimits): Promise<InspectedBuild> {
  const problems: BuildProblem[] = [];
  const entries: { name: string; entry: Entry }[] = [];
  let zip: ZipFile;
  try {
    zip = await openZip(zipPath, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
  } catch {
    return { problems: [{ rule: 'archive' }], files: [], entryPath: 'index.html', totalBytes: 0, prefix: '' };
  }
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        entries.push({ name: entryName(entry), entry });
        if (entries.length > limits.files * 4) return reject(new Error('too many entries'));
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
  } catch {
    zip.close();
    return { problems: [{ rule: 'archive' }], files: [], entryPath: 'index.html', totalBytes: 0, prefix: '' };
  }
  zip.close();

  const fileEntries = entries.filter(({ name }) => !name.endsWith('/'));
  // A zip of the folder itself ("my-game/index.html", …) is read as the folder's contents.
  const tops = new Set(fileEntries.map(({ name }) => (name.includes('/') ? name.slice(0, name.indexOf('/') + 1) : '')));
  const top = tops.size === 1 ? [...tops][0]! : '';
  const prefix = top !== '' && fileEntries.some(({ name }) => name === `${top}index.html`) ? top : '';

  const files: BuildFile[] = [];
  let totalBytes = 0;
  for (const { name: fullName, entry } of fileEntries) {
    const name = fullName.slice(prefix.length);
    const size = entry.uncompressedSize;
    const pathIssue = pathProblem(fullName) ?? pathProblem(name);
    if (pathIssue) {
      problems.push({ rule: 'path', path: fullName, values: { issue: pathIssue } });
      continue;
    }
    if (isLink(entry)) {
      problems.push({ rule: 'link', path: name });
      continue;
    }
    if (!ALLOWED_EXTENSIONS.has(typeOf(name))) problems.push({ rule: 'type', path: name, values: { extension: typeOf(name) || '-' } });
    if (size > limits.fileBytes) problems.push({ rule: 'file_size', path: name, values: { size, limit: limits.fileBytes } });
    if (size > RATIO_FLOOR_BYTES && size / Math.max(entry.compressedSize, 1) > limits.ratio)
      problems.push({ rule: 'ratio', path: name, values: { ratio: Math.round(size / Math.max(entry.compressedSize, 1)), limit: limits.ratio } });
    totalBytes += size;
    files.push({ path: name, size });
  }
  if (fileEntries.length > limits.files) problems.push({ rule: 'files', values: { count: fileEntries.length, limit: limits.files } });
  if (totalBytes > limits.totalBytes) problems.push({ rule: 'total', values: { size: totalBytes, limit: limits.totalBytes } });
  // The whole archive's ratio, when no one file already answered for it (many small files compressed alike).
  if (!problems.some((problem) => problem.rule === 'ratio') && totalBytes > RATIO_FLOOR_BYTES && totalBytes / Math.max(archiveBytes, 1) > limits.ratio)
    problems.push({ rule: 'ratio', values: { ratio: Math.round(totalBytes / Math.max(archiveBytes, 1)), limit: limits.ratio } });
  if (!files.some((file) => file.path === 'index.html')) problems.push({ rule: 'entry', values: { entry: 'index.html' } });
  return { problems, files, entryPath: 'index.html', totalBytes, prefix };
}

/**
 * Decompresses each file of an inspected archive and hands it over, refusing any that holds more
 * than its entry declared (reading stops there) or decompresses past the ratio. Returns the
 * problems met; on a problem nothing more is read.
 */
export async function readBuildFiles(
  zipPath: string,
  inspected: InspectedBuild,
  onFile: (path: string, bytes: Buffer) => Promise<void>,
  limits: BuildLimits,
): Promise<BuildProblem[]> {
  const wanted = new Map(inspected.files.map((file) => [inspected.prefix + file.path, file]));
  const zip = await openZip(zipPath, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
  const openReadStream = promisify(zip.openReadStream.bind(zip)) as (entry: Entry) => Promise<NodeJS.ReadableStream>;
  const problems: BuildProblem[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        const file = wanted.get(entryName(entry));
        if (!file) return zip.readEntry();
        readEntry(entry, file)
          .then((problem) => {
            if (problem) {
              problems.push(problem);
              return resolve();
            }
            zip.readEntry();
          })
          .catch(reject);
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
  } catch {
    problems.push({ rule: 'archive' });
  } finally {
    zip.close();
  }
  return problems;

  async function readEntry(entry: Entry, file: BuildFile): Promise<BuildProblem | null> {
    const stream = await openReadStream(entry);
    const chunks: Buffer[] = [];
    let read = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        read += chunk.length;
        // yauzl stops too (validateEntrySizes); this counts for itself, whatever the archive claims.
        if (read > file.size) {
          (stream as unknown as { destroy(): void }).destroy();
          return { rule: 'declared', path: file.path, values: { size: file.size } };
        }
        // The real ratio too, whatever the entry declared.
        if (read > RATIO_FLOOR_BYTES && read / Math.max(entry.compressedSize, 1) > limits.ratio) {
          (stream as unknown as { destroy(): void }).destroy();
          return { rule: 'ratio', path: file.path, values: { ratio: Math.round(read / Math.max(entry.compressedSize, 1)), limit: limits.ratio } };
        }
        chunks.push(chunk);
      }
    } catch {
      return { rule: 'declared', path: file.path, values: { size: file.size } };
    }
    if (read !== file.size) return { rule: 'archive', path: file.path };
    await onFile(file.path, Buffer.concat(chunks));
    return null;
  }
}
