#!/usr/bin/env node
// The Studio's command-line upload for build pipelines (decision 102, docs/sdk/studio-cli.md):
// `npm run studio -- push <folder> --game <slug> [--submit]`, or `npx playport-studio push …`.
// It zips the folder, uploads it with the tus protocol as the Studio's page does (so the server
// checks it by the same rules), and prints one JSON document on stdout: exit 0 with the build,
// 1 with the problems, 2 for a usage error. Progress goes to stderr.
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdtemp, readdir, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { DetailedError, Upload } from 'tus-js-client';
import yazl from 'yazl';

const USAGE = `usage: npm run studio -- push <folder> --game <slug> [--submit]
       npx playport-studio push <folder> --game <slug> [--submit]

Zips <folder> (its contents: index.html at the top) and uploads it as the next build of the
game <slug>; --submit also sends the build for review.

Environment: PLAYPORT_API_KEY  a Studio key (Studio > API keys), required
             PLAYPORT_URL      the portal (default http://localhost:3000)

Prints one JSON document on stdout: {"ok":true,"build":{…}} (exit 0) or
{"ok":false,"problems":[…]} (exit 1; 2 for a usage error).`;

/** One problem, as the server words those of an archive (`rule`, `path`, `message`). */
interface Problem {
  rule: string;
  path?: string;
  message: string;
}

interface Build {
  id: number;
  version: number;
  status: string;
  previewUrl: string;
}

class Failure extends Error {
  readonly problems: Problem[];
  readonly exitCode: number;
  constructor(problems: Problem[], exitCode = 1) {
    super(problems.map((problem) => problem.message).join('; '));
    this.problems = problems;
    this.exitCode = exitCode;
  }
}

const usage = (message: string) => new Failure([{ rule: 'usage', message }], 2);

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { game: { type: 'string' }, submit: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    });
  } catch (error) {
    throw usage((error as Error).message);
  }
  const [command, folder, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (command !== 'push') throw usage(command ? `Unknown command "${command}": the command is push.` : 'Name a command: push.');
  if (!folder) throw usage('Name the folder to push.');
  if (rest.length > 0) throw usage(`Unexpected argument "${rest[0]}".`);
  const game = parsed.values.game?.trim();
  if (!game) throw usage('Name the game with --game <slug>.');
  const key = process.env.PLAYPORT_API_KEY?.trim();
  if (!key) throw usage('Set PLAYPORT_API_KEY to a Studio key (Studio > API keys).');
  let base: URL;
  try {
    base = new URL(process.env.PLAYPORT_URL?.trim() || 'http://localhost:3000');
  } catch {
    throw usage(`PLAYPORT_URL is not a URL: ${process.env.PLAYPORT_URL}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw usage(`PLAYPORT_URL must be http or https: ${base.href}`);
  return { folder: resolve(folder), game, submit: parsed.values.submit, key, api: new URL('serve/api/', base.href.endsWith('/') ? base : `${base.href}/`) };
}

/**
 * Zips a folder's contents into a file. Links go in as links (the server refuses them and says
 * which), so what the pipeline pushes is checked as it is, never followed out of the folder.
 */
async function zipFolder(folder: string, into: string): Promise<number> {
  const zip = new yazl.ZipFile();
  let count = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      const name = relative(folder, path).split(sep).join('/');
      if (entry.isDirectory()) await walk(path);
      else if (entry.isSymbolicLink()) {
        zip.addBuffer(Buffer.from(await readlink(path)), name, { mode: 0o120777 });
        count += 1;
      } else if (entry.isFile()) {
        zip.addFile(path, name, { mode: (await lstat(path)).mode });
        count += 1;
      }
    }
  };
  await walk(folder);
  if (count === 0) throw new Failure([{ rule: 'entry', message: `${folder} holds no files.` }]);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(into));
  return (await stat(into)).size;
}

/** An API call with the key; the envelope's `data`, or a Failure with its message. */
async function call<T>(api: URL, key: string, method: 'GET' | 'POST', path: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(new URL(path, api), { method, headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
  } catch (error) {
    throw new Failure([
      { rule: 'connection', message: `${api.origin} did not answer: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}` },
    ]);
  }
  const envelope = (await response.json().catch(() => null)) as { message?: string; data?: unknown } | null;
  if (!response.ok) throw new Failure([refusal(response.status, envelope?.message)]);
  return envelope?.data as T;
}

function refusal(status: number, message: string | undefined): Problem {
  if (status === 401) return { rule: 'key', message: `The key was refused (401): ${message ?? ''} Check PLAYPORT_API_KEY; it may have been revoked.`.trim() };
  if (status === 404) return { rule: 'game', message: 'No game of yours has that slug (404).' };
  if (status === 413) return { rule: 'total', message: 'The zip is larger than a build may be (413).' };
  return { rule: 'server', message: `${status}: ${message ?? 'unexpected answer'}` };
}

interface Envelope {
  message?: string;
  data?: { problems?: Problem[] };
}

function envelopeOf(body: string): Envelope | null {
  try {
    return JSON.parse(body) as Envelope;
  } catch {
    return null;
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** Uploads the zip with the tus protocol, resuming after a dropped connection; the new build. */
function upload(api: URL, key: string, appId: number, zipPath: string, size: number): Promise<Build> {
  return new Promise((done, fail) => {
    let shown = -1;
    const tus = new Upload(createReadStream(zipPath), {
      endpoint: new URL(`studio/games/${appId}/uploads`, api).href,
      uploadSize: size,
      headers: { authorization: `Bearer ${key}` },
      metadata: { filename: 'build.zip' },
      // Large pieces: each one is a request; the server keeps what arrived between them.
      chunkSize: 8 * 1_048_576,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      storeFingerprintForResuming: false,
      onProgress: (sent, total) => {
        const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
        if (percent >= shown + 10 || (percent === 100 && shown !== 100)) {
          shown = percent;
          process.stderr.write(`uploading ${percent}% (${megabytes(sent)} of ${megabytes(total)})\n`);
        }
      },
      onSuccess: ({ lastResponse }) => {
        try {
          done((JSON.parse(lastResponse.getBody()) as { data: Build }).data);
        } catch {
          fail(new Failure([{ rule: 'server', message: 'The server finished the upload without the build.' }]));
        }
      },
      onError: (error) => {
        const response = error instanceof DetailedError ? error.originalResponse : null;
        if (!response) {
          fail(new Failure([{ rule: 'connection', message: `The upload failed: ${error.message}` }]));
          return;
        }
        const envelope = envelopeOf(response.getBody());
        const problems = envelope?.data?.problems;
        fail(new Failure(Array.isArray(problems) && problems.length > 0 ? problems : [refusal(response.getStatus(), envelope?.message)]));
      },
    });
    tus.start();
  });
}

async function push(argv: string[]): Promise<Build> {
  const options = parse(argv);
  if (!(await stat(options.folder).catch(() => null))?.isDirectory()) throw usage(`${options.folder} is not a folder.`);
  const game = await call<{ id: number; slug: string }>(options.api, options.key, 'GET', `studio/games/by-slug/${encodeURIComponent(options.game)}`);
  const scratch = await mkdtemp(join(tmpdir(), 'playport-studio-'));
  try {
    const zipPath = join(scratch, 'build.zip');
    const size = await zipFolder(options.folder, zipPath);
    process.stderr.write(`zipped ${options.folder} (${megabytes(size)}) for ${game.slug}\n`);
    let build = await upload(options.api, options.key, game.id, zipPath, size);
    process.stderr.write(`build ${build.version} uploaded\n`);
    if (options.submit) {
      build = await call<Build>(options.api, options.key, 'POST', `studio/games/${game.id}/builds/${build.id}/submit`);
      process.stderr.write(`build ${build.version} sent for review\n`);
    }
    return build;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

try {
  const build = await push(process.argv.slice(2));
  process.stdout.write(
    `${JSON.stringify({ ok: true, build: { id: build.id, version: build.version, status: build.status, previewUrl: build.previewUrl } })}\n`,
  );
} catch (error) {
  const failure = error instanceof Failure ? error : new Failure([{ rule: 'internal', message: (error as Error).message }]);
  if (failure.exitCode === 2) process.stderr.write(`${USAGE}\n`);
  for (const problem of failure.problems) process.stderr.write(`${problem.path ? `${problem.path}: ` : ''}${problem.message}\n`);
  process.stdout.write(`${JSON.stringify({ ok: false, problems: failure.problems })}\n`);
  process.exitCode = failure.exitCode;
}
