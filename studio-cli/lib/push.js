// `playport-studio push`: zips a folder and uploads it as the next build of a game with a Studio
// key (decision 102, 123). Plain JavaScript on Node's standard library: it runs from the package
// on Node.js 20 or later, with no checkout of the portal and nothing else installed.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TusError, tusUpload } from './tus.js';
import { zipFolder } from './zip.js';

/**
 * One problem, as the server words those of an archive.
 * @typedef {{ rule: string, path?: string, message: string }} Problem
 * @typedef {{ id: number, version: number, status: string, previewUrl: string }} Build
 * @typedef {{ folder: string, game: string, submit: boolean, key: string, api: URL }} PushOptions
 */

export const USAGE = `usage: playport-studio push <folder> --game <slug> [--submit]

Zips <folder> (its contents: index.html at the top) and uploads it as the next build of the
game <slug>; --submit also sends the build for review.

Environment: PLAYPORT_API_KEY  a Studio key (Studio > API keys), required
             PLAYPORT_URL      the portal (default http://localhost:3000)

Prints one JSON document on stdout: {"ok":true,"build":{…}} (exit 0) or
{"ok":false,"problems":[…]} (exit 1; 2 for a usage error).`;

/** A refusal: the problems to print and the exit code (1 refused, 2 usage). */
export class Failure extends Error {
  /** @param {Problem[]} problems @param {number} [exitCode] */
  constructor(problems, exitCode = 1) {
    super(problems.map((problem) => problem.message).join('; '));
    this.problems = problems;
    this.exitCode = exitCode;
  }
}

const usage = (/** @type {string} */ message) => new Failure([{ rule: 'usage', message }], 2);

/**
 * The options of a command line and its environment; `null` when help was asked for.
 * @param {string[]} argv
 * @param {Record<string, string | undefined>} env
 * @returns {PushOptions | null}
 */
export function parse(argv, env) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { game: { type: 'string' }, submit: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    });
  } catch (error) {
    throw usage(/** @type {Error} */ (error).message);
  }
  if (parsed.values.help) return null;
  const [command, folder, ...rest] = parsed.positionals;
  if (command !== 'push') throw usage(command ? `Unknown command "${command}": the command is push.` : 'Name a command: push.');
  if (!folder) throw usage('Name the folder to push.');
  if (rest.length > 0) throw usage(`Unexpected argument "${rest[0]}".`);
  const game = parsed.values.game?.trim();
  if (!game) throw usage('Name the game with --game <slug>.');
  const key = env.PLAYPORT_API_KEY?.trim();
  if (!key) throw usage('Set PLAYPORT_API_KEY to a Studio key (Studio > API keys).');
  let base;
  try {
    base = new URL(env.PLAYPORT_URL?.trim() || 'http://localhost:3000');
  } catch {
    throw usage(`PLAYPORT_URL is not a URL: ${env.PLAYPORT_URL}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw usage(`PLAYPORT_URL must be http or https: ${base.href}`);
  const root = base.href.endsWith('/') ? base.href : `${base.href}/`;
  return { folder: resolve(folder), game, submit: parsed.values.submit ?? false, key, api: new URL('serve/api/', root) };
}

/**
 * The problem of a refused call, from its status and the envelope's message.
 * @param {number} status @param {string | undefined} message @param {unknown} [limit]
 * @returns {Problem}
 */
function refusal(status, message, limit) {
  if (status === 401) return { rule: 'key', message: `The key was refused (401): ${message ?? ''} Check PLAYPORT_API_KEY; it may have been revoked.`.trim() };
  if (status === 404) return { rule: 'game', message: 'No game of yours has that slug (404).' };
  if (status === 413) return { rule: 'total', message: 'The zip is larger than a build may be (413).' };
  // A studio's upload limits (decision 109): the rule names the limit, the server's message words it.
  if (status === 429)
    return { rule: typeof limit === 'string' ? limit : 'upload_limit', message: `${message ?? 'An upload limit of your studio was reached.'} (429)` };
  return { rule: 'server', message: `${status}: ${message ?? 'unexpected answer'}` };
}

/** @param {string} body @returns {{ message?: string, data?: any } | null} */
function envelopeOf(body) {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/**
 * An API call with the key: the envelope's `data`, or a Failure with its message.
 * @param {PushOptions} options @param {'GET' | 'POST'} method @param {string} path
 */
async function call(options, method, path) {
  let response;
  try {
    response = await fetch(new URL(path, options.api), { method, headers: { authorization: `Bearer ${options.key}`, accept: 'application/json' } });
  } catch (error) {
    const cause = /** @type {Error} */ (error).cause;
    throw new Failure([
      { rule: 'connection', message: `${options.api.origin} did not answer: ${cause instanceof Error ? cause.message : /** @type {Error} */ (error).message}` },
    ]);
  }
  const envelope = envelopeOf(await response.text().catch(() => ''));
  if (!response.ok) throw new Failure([refusal(response.status, envelope?.message)]);
  return envelope?.data;
}

const megabytes = (/** @type {number} */ bytes) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * Zips and uploads a folder as the next build of a game (and submits it with `submit`).
 * @param {PushOptions} options
 * @param {(line: string) => void} [progress] where progress lines go (stderr for the command)
 * @returns {Promise<Build>}
 */
export async function push(options, progress = () => {}) {
  if (!(await stat(options.folder).catch(() => null))?.isDirectory()) throw usage(`${options.folder} is not a folder.`);
  /** @type {{ id: number, slug: string }} */
  const game = await call(options, 'GET', `studio/games/by-slug/${encodeURIComponent(options.game)}`);
  const scratch = await mkdtemp(join(tmpdir(), 'playport-studio-'));
  try {
    const zipPath = join(scratch, 'build.zip');
    const { files, bytes } = await zipFolder(options.folder, zipPath);
    if (files === 0) throw new Failure([{ rule: 'entry', message: `${options.folder} holds no files.` }]);
    progress(`zipped ${options.folder} (${files} files, ${megabytes(bytes)}) for ${game.slug}`);
    let shown = -1;
    let answer;
    try {
      answer = await tusUpload({
        endpoint: new URL(`studio/games/${game.id}/uploads`, options.api).href,
        file: zipPath,
        size: bytes,
        headers: { authorization: `Bearer ${options.key}` },
        onProgress: (sent, total) => {
          const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
          if (percent >= shown + 10 || (percent === 100 && shown !== 100)) {
            shown = percent;
            progress(`uploading ${percent}% (${megabytes(sent)} of ${megabytes(total)})`);
          }
        },
      });
    } catch (error) {
      if (!(error instanceof TusError)) throw error;
      if (!error.answer) throw new Failure([{ rule: 'connection', message: `The upload failed: ${error.message}` }]);
      const envelope = envelopeOf(error.answer.body);
      const problems = envelope?.data?.problems;
      throw new Failure(Array.isArray(problems) && problems.length > 0 ? problems : [refusal(error.answer.status, envelope?.message, envelope?.data?.limit)]);
    }
    /** @type {Build | undefined} */
    let build = envelopeOf(answer.body)?.data;
    if (!build || typeof build.id !== 'number') throw new Failure([{ rule: 'server', message: 'The server finished the upload without the build.' }]);
    progress(`build ${build.version} uploaded`);
    if (options.submit) {
      build = /** @type {Build} */ (await call(options, 'POST', `studio/games/${game.id}/builds/${build.id}/submit`));
      progress(`build ${build.version} sent for review`);
    }
    return build;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The whole command: one JSON document on stdout, progress and problems on stderr.
 * @param {string[]} argv
 * @param {Record<string, string | undefined>} env
 * @returns {Promise<number>} the exit code
 */
export async function main(argv, env) {
  try {
    const options = parse(argv, env);
    if (options === null) {
      process.stderr.write(`${USAGE}\n`);
      process.stdout.write(`${JSON.stringify({ ok: true, usage: USAGE })}\n`);
      return 0;
    }
    const build = await push(options, (line) => process.stderr.write(`${line}\n`));
    const answer = { id: build.id, version: build.version, status: build.status, previewUrl: build.previewUrl };
    process.stdout.write(`${JSON.stringify({ ok: true, build: answer })}\n`);
    return 0;
  } catch (error) {
    const failure = error instanceof Failure ? error : new Failure([{ rule: 'internal', message: /** @type {Error} */ (error).message }]);
    if (failure.exitCode === 2) process.stderr.write(`${USAGE}\n`);
    for (const problem of failure.problems) process.stderr.write(`${problem.path ? `${problem.path}: ` : ''}${problem.message}\n`);
    process.stdout.write(`${JSON.stringify({ ok: false, problems: failure.problems })}\n`);
    return failure.exitCode;
  }
}
