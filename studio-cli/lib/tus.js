// A tus 1.0 client (creation, core) on fetch: what the Studio's page speaks to the same routes,
// so the server checks a pushed zip by the same rules. Resumes after a dropped connection with
// HEAD, and starts again when the server no longer knows the upload (removed after a day idle).
import { open } from 'node:fs/promises';

/**
 * @typedef {{ status: number, body: string, headers: Headers }} TusAnswer
 * @typedef {{ endpoint: string, file: string, size: number, headers: Record<string, string>,
 *   chunkSize?: number, retryDelays?: number[], onProgress?: (sent: number, total: number) => void }} TusOptions
 */

/** An upload the server refused with an answer (its status and body), or the connection failed (no answer). */
export class TusError extends Error {
  /** @param {string} message @param {TusAnswer | null} answer */
  constructor(message, answer) {
    super(message);
    /** @type {TusAnswer | null} */
    this.answer = answer;
  }
}

const wait = (/** @type {number} */ ms) => new Promise((done) => setTimeout(done, ms));

/** @param {Response} response @returns {Promise<TusAnswer>} */
async function answerOf(response) {
  return { status: response.status, body: await response.text().catch(() => ''), headers: response.headers };
}

/** Worth another try: no answer, a server error, or a conflict about the offset (as tus-js-client does). */
const retriable = (/** @type {TusError} */ error) => !error.answer || error.answer.status >= 500 || [409, 423].includes(error.answer.status);

/**
 * Uploads a file; resolves with the answer to its last PATCH (where the portal puts the build).
 * @param {TusOptions} options
 * @returns {Promise<TusAnswer>}
 */
export async function tusUpload(options) {
  const { endpoint, file, size, headers } = options;
  const chunkSize = options.chunkSize ?? 8 * 1_048_576;
  const retryDelays = options.retryDelays ?? [0, 1000, 3000, 5000, 10000];
  const base = { ...headers, 'tus-resumable': '1.0.0' };
  /** @param {string} url @param {RequestInit} init */
  const send = async (url, init) => {
    let response;
    try {
      response = await fetch(url, { ...init, headers: { ...base, ...init.headers } });
    } catch (error) {
      const cause = /** @type {Error} */ (error).cause;
      throw new TusError(cause instanceof Error ? cause.message : /** @type {Error} */ (error).message, null);
    }
    return answerOf(response);
  };
  const create = async () => {
    const created = await send(endpoint, {
      method: 'POST',
      headers: { 'upload-length': String(size), 'upload-metadata': `filename ${Buffer.from('build.zip').toString('base64')}` },
    });
    const location = created.headers.get('location');
    if (created.status !== 201 || !location) throw new TusError(`creating the upload answered ${created.status}`, created);
    return new URL(location, endpoint).href;
  };

  const handle = await open(file, 'r');
  try {
    /** @type {string | null} */
    let url = null;
    let offset = 0;
    let attempt = 0;
    for (;;) {
      try {
        if (url === null) {
          url = await create();
          offset = 0;
        } else if (attempt > 0) {
          // After a failure: ask where the server stands, or start again if it forgot the upload.
          const head = await send(url, { method: 'HEAD' });
          if (head.status === 404 || head.status === 410) {
            url = null;
            continue;
          }
          if (head.status !== 200 && head.status !== 204) throw new TusError(`asking the upload's offset answered ${head.status}`, head);
          offset = Number(head.headers.get('upload-offset') ?? 0);
        }
        for (;;) {
          const length = Math.min(chunkSize, size - offset);
          const chunk = Buffer.alloc(length);
          await handle.read(chunk, 0, length, offset);
          const patched = await send(url, {
            method: 'PATCH',
            headers: { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
            body: chunk,
          });
          if (patched.status < 200 || patched.status >= 300) throw new TusError(`sending bytes answered ${patched.status}`, patched);
          offset = Number(patched.headers.get('upload-offset') ?? offset + length);
          attempt = 0;
          options.onProgress?.(offset, size);
          if (offset >= size) return patched;
        }
      } catch (error) {
        if (!(error instanceof TusError) || !retriable(error) || attempt >= retryDelays.length) throw error;
        await wait(/** @type {number} */ (retryDelays[attempt]));
        attempt += 1;
      }
    }
  } finally {
    await handle.close();
  }
}
