import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPublicAddress, REFUSED_ADDRESS } from './public-address.ts';
import { KEPT_RESPONSE_BYTES, type WebhookAnswer, type WebhookSender } from './webhook-sender.ts';

/**
 * Posts with node:http(s): the host's addresses checked at connection time (decisions 100 and
 * 110), no redirects followed, a time limit for the whole answer, and only the first bytes of the
 * body read. An IP literal never goes through the DNS lookup, so it is checked here before connecting.
 */
export class HttpWebhookSender implements WebhookSender {
  readonly #allowPrivate: boolean;
  readonly #timeoutMs: number;
  constructor(options: { allowPrivate: boolean; timeoutMs?: number }) {
    this.#allowPrivate = options.allowPrivate;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAnswer> {
    const target = new URL(url);
    const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!this.#allowPrivate && isIP(literal) !== 0 && !isPublicAddress(literal)) {
      return Promise.resolve({ statusCode: null, body: null, error: `${literal} is not a public address`, refused: true });
    }
    return new Promise((resolvePromise) => {
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      let settled = false;
      const finish = (answer: WebhookAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolvePromise(answer);
      };
      const outgoing = send(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: guardedLookup(this.#allowPrivate),
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            finish({ statusCode: response.statusCode ?? null, body: Buffer.concat(chunks).subarray(0, KEPT_RESPONSE_BYTES).toString('utf8'), error: null });
            response.destroy();
          };
          response.on('data', (chunk: Buffer) => {
            if (size < KEPT_RESPONSE_BYTES) chunks.push(chunk);
            size += chunk.length;
            if (size >= KEPT_RESPONSE_BYTES) done();
          });
          response.on('end', done);
          response.on('error', done);
        },
      );
      const timer = setTimeout(() => {
        outgoing.destroy();
        finish({ statusCode: null, body: null, error: `no answer within ${this.#timeoutMs / 1000} s` });
      }, this.#timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        finish({ statusCode: null, body: null, error: error.message.slice(0, 300), ...(error.code === REFUSED_ADDRESS ? { refused: true } : {}) }),
      );
      outgoing.end(body);
    });
  }
}
