// Storage command (decision 150): `npm run storage -- migrate [--kind uploads|builds|exports] [--from <folder>]`
// copies the folders (UPLOAD_DIR, BUILDS_DIR, EXPORTS_DIR, or the one given) into the bucket of
// STORAGE_URL, skipping files already there whole, then reads back every file and compares its size
// and SHA-256; `check` does the comparison alone. Exits 1 listing every file that differs.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { copyFolderToStorage } from '../server/adapters/storage/copy-folder.ts';
import type { FileStorage } from '../server/adapters/storage/file-storage.ts';
import { loadConfigOrExit } from '../server/config.ts';
import { fileStoragesFor } from '../server/services/outside-systems.ts';

const KINDS = ['uploads', 'builds', 'exports'] as const;
type Kind = (typeof KINDS)[number];

function usage(problem: string): never {
  console.error(problem);
  console.error('usage: npm run storage -- migrate [--kind uploads|builds|exports] [--from <folder>]');
  console.error('       npm run storage -- check [--kind uploads|builds|exports] [--from <folder>]');
  console.error('Without --kind: the three configured folders (UPLOAD_DIR, BUILDS_DIR, EXPORTS_DIR). --from needs --kind.');
  process.exit(2);
}

let parsed: ReturnType<typeof parseArgs<{ options: { kind: { type: 'string' }; from: { type: 'string' } }; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options: { kind: { type: 'string' }, from: { type: 'string' } }, allowPositionals: true });
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const [command, ...extra] = parsed.positionals;
if ((command !== 'migrate' && command !== 'check') || extra.length > 0) usage(`unknown command: ${parsed.positionals.join(' ') || '(none)'}`);
const kind = parsed.values.kind;
if (kind !== undefined && !KINDS.includes(kind as Kind)) usage(`--kind must be one of ${KINDS.join(', ')}`);
if (parsed.values.from !== undefined && kind === undefined) usage('--from needs --kind');

const config = loadConfigOrExit();
if (!config.objectStorage) {
  console.error('STORAGE_URL is not set: there is no bucket to copy the folders into (decision 150).');
  process.exit(2);
}
const storages = fileStoragesFor(config);
const everything: { kind: Kind; folder: string; target: FileStorage }[] = [
  { kind: 'uploads', folder: config.uploadDir, target: storages.uploads },
  { kind: 'builds', folder: config.buildsDir, target: storages.buildFiles },
  { kind: 'exports', folder: config.exportsDir, target: storages.memberExports },
];
const plan = everything
  .filter((entry) => kind === undefined || entry.kind === kind)
  .map((entry) => ({ ...entry, folder: resolve(parsed.values.from ?? entry.folder) }));

let failed = false;
const where = `s3://${config.objectStorage.bucket}/${config.objectStorage.prefix}`;
for (const { kind: name, folder, target } of plan) {
  const report = await copyFolderToStorage(folder, target, { checkOnly: command === 'check' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    console.log(`${name}: ${folder} does not exist; nothing to copy`);
    return null;
  });
  if (!report) continue;
  console.log(
    `${name}: ${folder} -> ${where}${name}/: ${report.files} files, ${report.copied} copied, ${report.skipped} already there, ${report.verified} checked the same` +
      (report.ignored.length > 0 ? `, ${report.ignored.length} left out (unfinished uploads, temporary files)` : ''),
  );
  for (const problem of report.problems) console.error(`  ${name}: ${problem.key}: ${problem.problem}`);
  if (report.problems.length > 0) failed = true;
}
if (failed) {
  console.error('Some files are not the same in the bucket: see above. Run the command again to copy them again.');
  process.exitCode = 1;
}
