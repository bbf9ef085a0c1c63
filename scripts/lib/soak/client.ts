// The soak run's HTTP client: visitors on loopback addresses of their own (127.77.0.x), so the
// portal's per-address limits see many visitors as they would behind a load balancer. Every
// answer is timed and counted per phase and kind of request (stats.ts).
import { Agent, request } from 'node:http';
import type { Stats } from './stats.ts';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The envelope's data, when the answer is the API's JSON. */
  data: any;
}

/** How many source addresses the visitors come from. */
export const ADDRESSES = 64;
const agents = Array.from({ length: ADDRESSES }, (_, n) => new Agent({ keepAlive: true, maxSockets: 24, localAddress: `127.77.0.${n + 1}` }));

export class SoakClient {
  readonly #port: number;
  readonly #stats: Stats;
  /** One XSRF cookie and header pair: every instance checks it with the same APP_SECRET. */
  #csrf: { cookie: string; header: string } | null = null;

  constructor(port: number, stats: Stats) {
    this.#port = port;
    this.#stats = stats;
  }

  async init(): Promise<void> {
    const answer = await this.raw('setup', 'GET', '/serve/api/csrf', { address: 0 });
    const cookie = ([answer.headers['set-cookie']].flat().find((c) => c?.startsWith('XSRF-TOKEN=')) ?? '').split(';')[0]!;
    if (!cookie) throw new Error(`no XSRF-TOKEN cookie (${answer.status})`);
    this.#csrf = { cookie, header: decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) };
  }

  /** An API call as the browser makes it: JSON body (or `raw` bytes), bearer token, the XSRF pair on writes. */
  api(
    kind: string,
    method: string,
    path: string,
    options: { token?: string; body?: unknown; raw?: Buffer; address?: number; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (method !== 'GET' && method !== 'HEAD') {
      headers.cookie = this.#csrf!.cookie;
      headers['x-xsrf-token'] = this.#csrf!.header;
    }
    let body = options.raw;
    if (options.body !== undefined) {
      body = Buffer.from(JSON.stringify(options.body));
      headers['content-type'] = 'application/json';
    }
    return this.raw(kind, method, `/serve/api${path}`, { headers, body, address: options.address });
  }

  /** Any request to the proxy; status 0 when the connection failed or timed out. */
  raw(
    kind: string,
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: Buffer; address?: number; timeoutMs?: number; port?: number } = {},
  ): Promise<Answer> {
    const started = performance.now();
    const agent = agents[(options.address ?? 0) % ADDRESSES]!;
    const headers = { ...options.headers, ...(options.body ? { 'content-length': String(options.body.length) } : {}) };
    return new Promise<Answer>((done) => {
      const finish = (answer: Answer) => {
        this.#stats.record(kind, answer.status, performance.now() - started);
        done(answer);
      };
      const outgoing = request(
        { host: '127.0.0.1', port: options.port ?? this.#port, method, path, headers, agent, timeout: options.timeoutMs ?? 30_000 },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.once('error', () => finish({ status: 0, headers: {}, text: '', data: null }));
          incoming.once('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let data: unknown = null;
            if (String(incoming.headers['content-type'] ?? '').includes('json') && text) {
              try {
                data = (JSON.parse(text) as { data?: unknown }).data ?? null;
              } catch {
                data = null;
              }
            }
            finish({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, data });
          });
        },
      );
      outgoing.once('timeout', () => outgoing.destroy(new Error('timeout')));
      outgoing.once('error', () => finish({ status: 0, headers: {}, text: '', data: null }));
      outgoing.end(options.body);
    });
  }
}
