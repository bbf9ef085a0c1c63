import type { ApiEnvelope } from '#common/api/envelope.ts';
import { type ErrorCode, isErrorCode } from '#common/api/error-codes.ts';
import { API_BASE, RETRY_ATTEMPTS, TOKEN_COOKIE, UTM_FIELDS, XSRF_COOKIE } from '#common/constants.ts';
import { type Locale, localeOfPath } from '#common/locales.ts';
import { loadedI18n } from '../i18n/i18n.ts';
import type { ApiPath, BodyOf, DataOf, Method, OperationOf, QueryOf } from './api-contract.ts';
import { readCookie } from './cookies.ts';
import { retryDelay } from './retry-policy.ts';

/** A failed API call: `status` is the envelope's code (else the HTTP status, 0 without a response). */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  /** The envelope's `data` (field errors of a 422, for example), or null. */
  readonly data: unknown;
  /** The envelope's `error`: what went wrong in the domain's terms, or null without an envelope. */
  readonly errorCode: ErrorCode | null;
  constructor(status: number, message: string, data: unknown = null, options?: { cause?: unknown; errorCode?: ErrorCode | null }) {
    super(message, options);
    this.status = status;
    this.data = data;
    this.errorCode = options?.errorCode ?? null;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<Query = Record<string, QueryValue>> {
  query?: Query;
  /** JSON-serialisable value or FormData. POST, PUT and PATCH send `{}` when it is left out. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * A call that spends something single-use (a sign-in state or code): never sent again once the
   * server has seen it, since a retry would find it spent and report the wrong failure. A 419
   * (refused before anything was read) is still retried with a fresh CSRF cookie.
   */
  once?: boolean;
  /** Lets the request outlive the page (fetch keepalive): a report sent as the page is hidden. */
  keepalive?: boolean;
}

export interface ApiClientOptions {
  base: string;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** The Cookie string the XSRF, token and campaign values are read from. */
  cookies: () => string;
  locale: () => Locale;
  /** The session's bearer token; the token cookie by default (the session store may replace it). */
  token: () => string | null;
  /** The translated generic error text. */
  genericError: () => string;
  /** Headers every call carries besides its own: a build's preview page sends its preview label (decision 097). */
  headers: () => Record<string, string>;
}

export type { Method };

/** Options of a typed call: its query parameters are the operation's own. */
type CallOptions<Operation> = Omit<RequestOptions, 'query' | 'body'> & { query?: QueryOf<Operation> };
/** The body may be left out when the operation takes none or every field of it is optional. */
type BodyArgs<Operation> =
  {} extends BodyOf<Operation> ? [body?: BodyOf<Operation>, options?: CallOptions<Operation>] : [body: BodyOf<Operation>, options?: CallOptions<Operation>];
type Answer<P extends string, M extends Method> = Promise<ApiEnvelope<DataOf<OperationOf<P, M>>>>;

const WITH_BODY = new Set<Method>(['POST', 'PUT', 'PATCH']);

/**
 * The one client every page uses for /serve/api (spec sections 7 and 8). Its shorthands are typed
 * from the OpenAPI document (api-contract.ts): paths, bodies, queries and response data.
 */
export interface ApiClient {
  /** An untyped call (the client's own CSRF refresh and tests of the client itself). */
  request<T = unknown>(method: Method, path: string, options?: RequestOptions): Promise<ApiEnvelope<T>>;
  get<P extends ApiPath<'GET'>>(path: P, options?: CallOptions<OperationOf<P, 'GET'>>): Answer<P, 'GET'>;
  post<P extends ApiPath<'POST'>>(path: P, ...args: BodyArgs<OperationOf<P, 'POST'>>): Answer<P, 'POST'>;
  put<P extends ApiPath<'PUT'>>(path: P, ...args: BodyArgs<OperationOf<P, 'PUT'>>): Answer<P, 'PUT'>;
  patch<P extends ApiPath<'PATCH'>>(path: P, ...args: BodyArgs<OperationOf<P, 'PATCH'>>): Answer<P, 'PATCH'>;
  delete<P extends ApiPath<'DELETE'>>(path: P, options?: CallOptions<OperationOf<P, 'DELETE'>>): Answer<P, 'DELETE'>;
  /** Replaces some of the client's sources (the session store sets `token`). */
  configure(options: Partial<ApiClientOptions>): void;
  /** Resolves once no call is in flight: a call sent then does not race one that rotates the session. */
  settled(): Promise<void>;
}

const browserCookies = () => (typeof document === 'undefined' ? '' : document.cookie);
const pageLocale = () => localeOfPath(typeof window === 'undefined' ? '/' : window.location.pathname);

function browserDefaults(): ApiClientOptions {
  return {
    base: API_BASE,
    fetch: (...args) => globalThis.fetch(...args),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    cookies: browserCookies,
    locale: pageLocale,
    token: () => decodeOrNull(readCookie(TOKEN_COOKIE, browserCookies())),
    genericError: () => loadedI18n(pageLocale())?.t('errors:generic') ?? 'Error',
    headers: () => ({}),
  };
}

/**
 * Creates a client. Every call sends credentials, JSON headers, the XSRF token from its cookie,
 * the locale, the bearer token and the campaign tags; GET calls carry a `locale` query. A failure
 * the retry policy calls passing (retry-policy.ts) is tried RETRY_ATTEMPTS times in all; a 419
 * first fetches a fresh CSRF cookie. Other failures, a 409 among them, throw an ApiError at once.
 */
export function createApiClient(overrides: Partial<ApiClientOptions> = {}): ApiClient {
  const options: ApiClientOptions = { ...browserDefaults(), ...overrides };

  async function refreshCsrf(): Promise<void> {
    try {
      await options.fetch(`${options.base}/csrf`, { method: 'GET', credentials: 'include', headers: { Accept: 'application/json' } });
    } catch {
      // The retry that follows reports the failure.
    }
  }

  function buildUrl(method: Method, path: string, query: Record<string, QueryValue> | undefined, locale: Locale): string {
    const url = new URL(options.base + path, 'http://base.invalid');
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    if (method === 'GET' && !url.searchParams.has('locale')) url.searchParams.set('locale', locale);
    return url.pathname + url.search;
  }

  function buildHeaders(body: unknown, locale: Locale, extra: Record<string, string> | undefined): Headers {
    const cookies = options.cookies();
    const headers = new Headers({ Accept: 'application/json', Locale: locale });
    // FormData gets its multipart boundary from the browser.
    if (!(body instanceof FormData)) headers.set('Content-Type', 'application/json');
    const xsrf = decodeOrNull(readCookie(XSRF_COOKIE, cookies));
    if (xsrf) headers.set('X-XSRF-TOKEN', xsrf);
    const token = options.token();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    for (const field of UTM_FIELDS) {
      // Campaign cookies hold URL-encoded values, which are safe header text as they are.
      const value = readCookie(`utm_${field}`, cookies);
      if (value) headers.set(`Utm-${field[0]!.toUpperCase()}${field.slice(1)}`, value);
    }
    for (const [name, value] of Object.entries({ ...options.headers(), ...extra })) headers.set(name, value);
    return headers;
  }

  let inFlight = 0;
  let whenSettled: (() => void)[] = [];
  async function request<T>(method: Method, path: string, init: RequestOptions = {}): Promise<ApiEnvelope<T>> {
    inFlight++;
    try {
      return await send<T>(method, path, init);
    } finally {
      inFlight--;
      // A task later, so the code awaiting the call that ended (a sign-in storing its new token)
      // runs first; a call started meanwhile is waited for too.
      setTimeout(() => {
        if (inFlight > 0) return;
        const waiting = whenSettled;
        whenSettled = [];
        waiting.forEach((resolve) => resolve());
      }, 0);
    }
  }

  async function send<T>(method: Method, path: string, init: RequestOptions): Promise<ApiEnvelope<T>> {
    const locale = options.locale();
    const url = buildUrl(method, path, init.query, locale);
    const body = init.body === undefined && WITH_BODY.has(method) ? {} : init.body;
    // Without an XSRF cookie a state-changing call would surely get 419: fetch the cookie first.
    if (method !== 'GET' && !readCookie(XSRF_COOKIE, options.cookies())) await refreshCsrf();

    for (let attempt = 1; ; attempt++) {
      let response: Response | null = null;
      let failure: unknown = null;
      try {
        response = await options.fetch(url, {
          method,
          credentials: 'include',
          headers: buildHeaders(body, locale, init.headers),
          body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
          signal: init.signal,
          ...(init.keepalive ? { keepalive: true } : {}),
        });
      } catch (error) {
        if (isAbort(error, init.signal)) throw error;
        failure = error;
      }
      if (response?.ok) return (await readJson(response)) as ApiEnvelope<T>;

      const delay = retryDelay({
        method,
        status: response?.status ?? null,
        retryAfter: response?.headers.get('Retry-After') ?? null,
        once: init.once === true,
      });
      if (delay !== null && attempt < RETRY_ATTEMPTS) {
        if (response?.status === 419) await refreshCsrf();
        await options.sleep(delay);
        continue;
      }
      if (!response) throw new ApiError(0, options.genericError(), null, { cause: failure });
      const envelope = (await readJson(response)) as Partial<ApiEnvelope> | null;
      const status = typeof envelope?.code === 'number' ? envelope.code : response.status;
      const message = typeof envelope?.message === 'string' && envelope.message !== '' ? envelope.message : options.genericError();
      throw new ApiError(status, message, envelope?.data ?? null, { errorCode: isErrorCode(envelope?.error) ? envelope.error : null });
    }
  }

  // The shorthands' types come from the document; at run time they are one untyped request.
  const call = (method: Method) => (path: string, body?: unknown, init?: RequestOptions) => request(method, path, { ...init, body } as RequestOptions);
  return {
    request,
    get: (path, init) => request('GET', path, init as RequestOptions) as never,
    post: call('POST') as ApiClient['post'],
    put: call('PUT') as ApiClient['put'],
    patch: call('PATCH') as ApiClient['patch'],
    delete: (path, init) => request('DELETE', path, init as RequestOptions) as never,
    configure(next) {
      Object.assign(options, next);
    },
    settled: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenSettled.push(resolve))),
  };
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function decodeOrNull(value: string | null): string | null {
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError');
}

/** The page's client. */
export const api = createApiClient();

/**
 * The headers the page's API calls carry (locale, XSRF token, bearer token), for a call made by
 * another client on the page: the Studio's resumable upload (decision 097).
 */
export function browserApiHeaders(): Record<string, string> {
  const options = browserDefaults();
  const headers: Record<string, string> = { Locale: options.locale() };
  const xsrf = decodeOrNull(readCookie(XSRF_COOKIE, options.cookies()));
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  const token = options.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}
