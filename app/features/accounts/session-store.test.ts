import { describe, expect, it } from 'vitest';
import { solve, solves } from '#common/proof-of-work.ts';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import { type ApiClient, createApiClient } from '../../lib/api-client.ts';
import type { PageSession } from './page-session.ts';
import { type SessionEnvironment, type SessionMessage, SessionStore } from './session-store.ts';

const ok = (data: unknown, status = 200) => Response.json({ code: status, message: 'OK', data }, { status });
const fail = (status: number, message: string, data: unknown = null) => Response.json({ code: status, message, data }, { status });

/**
 * A small stand-in for the accounts API behind a real API client: guests, one member with a
 * password, tokens that can be revoked, and switches to make calls fail.
 */
class FakeAccounts {
  users = new Map<number, UserInfo & { password?: string; username?: string; fingerprint?: string; deviceId?: string }>();
  tokens = new Map<string, number>();
  calls: string[] = [];
  failGuest: { status: number; message: string; data?: unknown } | null = null;
  failInfo: 'network' | 'server' | null = null;
  /** The one token whose user info fails, or null for every token. */
  failInfoOf: string | null = null;
  failLogout = false;
  /** While set, a password sign-in waits for it: a call still in flight. */
  holdSignIn: Promise<void> | null = null;
  /** While set, a social link's answer waits for it, after the session was rotated on the server. */
  holdLink: Promise<void> | null = null;
  #next = 100;
  #issued = 0;

  /** Guests that hold something (a play, a favourite, a save): GET /guest/empty/ says false for them. */
  holding = new Set<number>();
  failEmpty = false;

  guest(): number {
    const uid = this.#next++;
    this.users.set(uid, { uid, nickname: `Guest${uid}`, avatar: null, social_providers: [], webauthn: false, isGuest: true });
    return uid;
  }

  member(username: string, password: string): number {
    const uid = this.#next++;
    this.users.set(uid, { uid, nickname: username, avatar: null, social_providers: [], webauthn: false, isGuest: false, username, password });
    return uid;
  }

  issue(uid: number): string {
    const token = `${uid}|${'x'.repeat(40)}${(this.#issued++).toString().padStart(8, '0')}`;
    this.tokens.set(token, uid);
    return token;
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://test.invalid');
    const path = url.pathname.replace('/serve/api', '');
    const method = init?.method ?? 'GET';
    this.calls.push(`${method} ${path}`);
    const bearer = new Headers(init?.headers).get('authorization')?.slice('Bearer '.length) ?? null;
    const caller = bearer ? this.tokens.get(bearer) : undefined;
    const body = init?.body ? JSON.parse(String(init.body)) : {};
    const info = (uid: number) => {
      const { password: _password, username: _username, fingerprint: _fingerprint, deviceId: _deviceId, ...userInfo } = this.users.get(uid)!;
      return userInfo;
    };
    switch (`${method} ${path}`) {
      case 'GET /guest/challenge/':
        return ok({ challenge: `challenge-${this.calls.length}`, difficulty: 4 });
      case 'POST /guest/login/': {
        if (this.failGuest) return fail(this.failGuest.status, this.failGuest.message, this.failGuest.data);
        if (!body.challenge || !solves(body.challenge, body.nonce, 4)) return fail(403, 'Please let the page finish loading, then try again.');
        const uid = this.#next++;
        this.users.set(uid, {
          uid,
          nickname: `Guest${uid}`,
          avatar: null,
          social_providers: [],
          webauthn: false,
          isGuest: true,
          fingerprint: body.fingerprint,
        });
        const token = this.issue(uid);
        return ok({ token, userInfo: info(uid), created: true }, 201);
      }
      case 'POST /guest/device/': {
        if (caller === undefined) return fail(401, 'Token is missing or invalid.');
        const user = this.users.get(caller)!;
        const recorded = user.isGuest && !user.deviceId;
        if (recorded) Object.assign(user, { fingerprint: body.fingerprint, deviceId: body.deviceId });
        return ok({ recorded });
      }
      case 'GET /member/info/':
        if (this.failInfoOf === null || this.failInfoOf === bearer) {
          if (this.failInfo === 'network') throw new TypeError('Failed to fetch');
          if (this.failInfo === 'server') return fail(503, 'The server is busy.');
        }
        return caller === undefined ? fail(401, 'Token is missing or invalid.') : ok({ token: bearer, userInfo: info(caller) });
      case 'GET /guest/empty/':
        if (caller === undefined) return fail(401, 'Token is missing or invalid.');
        if (this.failEmpty) return fail(503, 'The server is busy.');
        return ok({ empty: this.users.get(caller)!.isGuest && !this.holding.has(caller) });
      case 'POST /username/login/': {
        await this.holdSignIn;
        const user = [...this.users.values()].find((u) => u.username === body.username);
        if (!user || user.password !== body.password) return fail(401, 'The username or password is incorrect.');
        return ok({ token: this.issue(user.uid), userInfo: info(user.uid) });
      }
      case 'POST /fingerprint/login/': {
        const user = [...this.users.values()].find((u) => u.isGuest && u.fingerprint === body.fingerprint && u.deviceId === body.deviceId);
        return user ? ok({ token: this.issue(user.uid), userInfo: info(user.uid) }) : fail(404, 'No guest account is linked to this device.');
      }
      case 'POST /oauth/link/discord': {
        // Linking rotates the session (decision 050): a new token, every earlier one revoked at once.
        if (caller === undefined) return fail(401, 'Token is missing or invalid.');
        const token = this.issue(caller);
        for (const [earlier, uid] of this.tokens) if (uid === caller && earlier !== token) this.tokens.delete(earlier);
        const user = this.users.get(caller)!;
        user.social_providers = [...user.social_providers, 'discord'];
        await this.holdLink;
        return ok({ data: { token, userInfo: info(caller) } });
      }
      case 'PATCH /member/password/': {
        // A guest becomes a member of the same account, on a new token (decision 050).
        if (caller === undefined) return fail(401, 'Token is missing or invalid.');
        Object.assign(this.users.get(caller)!, { isGuest: false, username: body.username, password: body.password });
        if (bearer) this.tokens.delete(bearer);
        return ok({ token: this.issue(caller), userInfo: info(caller) });
      }
      case 'POST /logout/':
        if (this.failLogout) return fail(500, 'The server had a problem.');
        if (bearer) this.tokens.delete(bearer);
        return ok({ revoked: caller !== undefined });
      default:
        return fail(404, 'No such call');
    }
  };
}

/** One browser: the cookie jar and the channel are shared by its tabs. */
class FakeBrowser {
  online = true;
  cookie: string | null = null;
  /** The token the server verified from a page's URL, waiting for the page (session_offer cookie). */
  offer: string | null = null;
  /** How the visitor answers the dialog ("Continue as …" is true); every question asked is kept. */
  confirmAnswer = false;
  /** While set, the dialog stays open: the visitor has not answered yet. */
  holdAnswer: Promise<void> | null = null;
  readonly questions: Array<{ offered: number; current: number | null }> = [];
  readonly tabs: Array<(message: SessionMessage) => void> = [];
  /** The last user info seen and its token (localStorage). */
  knownUser: { token: string; userInfo: UserInfo } | null = null;
  /** Guests whose device this browser recorded (localStorage). */
  readonly recordedDevices = new Set<number>();
  /** The random device id this browser keeps (localStorage); null when it cannot keep one. */
  deviceId: string | null = `device-${Math.random().toString(36).slice(2)}-kept-in-local-storage`;
  #lock: Promise<unknown> = Promise.resolve();

  exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = this.#lock.then(task, task);
    this.#lock = run.catch(() => undefined);
    return run;
  };
}

interface Tab {
  store: SessionStore;
  /** The tab's API client, for calls the store does not make itself (a social link). */
  api: ApiClient;
  /** Set `leaving` to close the tab (pagehide): its calls then fail as aborted ones do. */
  page: { leaving: boolean };
  logins: number[];
  registrations: number[];
  /** The member sessions another tab ended, as this tab told the person: the member's uid, and the account that followed (null: none yet). */
  endedElsewhere: Array<{ ended: number; next: number | null }>;
  /** Retries the store scheduled, with their delays: run them with `runLater`. */
  later: Array<{ task: () => void; ms: number }>;
  /** Work the store left for a quiet moment (the device recording). */
  quiet: Array<() => void>;
  clock: { now: number };
}

function openTab(server: FakeAccounts, browser: FakeBrowser, options: { bot?: boolean; fingerprint?: string | null } = {}): Tab {
  const logins: number[] = [];
  const registrations: number[] = [];
  const endedElsewhere: Tab['endedElsewhere'] = [];
  const later: Tab['later'] = [];
  const quiet: Tab['quiet'] = [];
  const clock = { now: 1_000_000 };
  const page = { leaving: false };
  const api = createApiClient({
    base: '/serve/api',
    fetch: server.fetch,
    sleep: async () => undefined,
    cookies: () => 'XSRF-TOKEN=test',
    locale: () => 'en',
    token: () => browser.cookie,
    genericError: () => 'Something went wrong.',
  });
  let self: ((message: SessionMessage) => void) | null = null;
  const environment: SessionEnvironment = {
    api,
    readToken: () => browser.cookie,
    writeToken: (token) => {
      browser.cookie = token;
    },
    channel: {
      // Like a BroadcastChannel: every other tab gets it, asynchronously, the sender does not.
      post: (message) => {
        for (const tab of browser.tabs) if (tab !== self) queueMicrotask(() => tab(structuredClone(message)));
      },
      listen: (handler) => {
        self = handler;
        browser.tabs.push(handler);
        return () => undefined;
      },
    },
    exclusive: browser.exclusive,
    fingerprint: async () => (options.fingerprint === undefined ? 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6' : options.fingerprint),
    deviceId: () => browser.deviceId,
    whenQuiet: (task) => quiet.push(task),
    knownUserInfo: {
      read: (token) => (browser.knownUser?.token === token ? browser.knownUser.userInfo : null),
      write: (token, userInfo) => {
        browser.knownUser = token && userInfo ? { token, userInfo } : null;
      },
    },
    recordedDevices: browser.recordedDevices,
    isCrawler: () => options.bot ?? false,
    onLogin: (uid) => logins.push(uid),
    onRegistration: (uid) => registrations.push(uid),
    onSessionEndedElsewhere: (ended, next) => endedElsewhere.push({ ended: ended.uid, next: next?.uid ?? null }),
    solveChallenge: async ({ challenge, difficulty }) => solve(challenge, difficulty, async () => undefined),
    later: (task, ms) => later.push({ task, ms }),
    now: () => clock.now,
    online: () => browser.online,
    leaving: () => page.leaving,
    takeTokenOffer: () => {
      const offer = browser.offer;
      browser.offer = null;
      return offer;
    },
    confirmSwitch: async (offered, current) => {
      browser.questions.push({ offered: offered.uid, current: current?.uid ?? null });
      await browser.holdAnswer;
      return browser.confirmAnswer;
    },
    message: (key) => (key === 'errors:unauthenticated' ? 'Token is missing or invalid.' : key),
  };
  return { store: new SessionStore(() => environment), api, page, logins, registrations, endedElsewhere, later, quiet, clock };
}

const NONE: PageSession = { state: 'none', userInfo: null };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await settle();
  expect(check()).toBe(true);
}

/** A member's page, started with the token and user info the server rendered it with. */
function memberTab(nickname: string, options: { bot?: boolean } = {}): { server: FakeAccounts; browser: FakeBrowser; uid: number; token: string; tab: Tab } {
  const server = new FakeAccounts();
  const browser = new FakeBrowser();
  const uid = server.member(nickname, 'secret-password');
  const token = server.issue(uid);
  browser.cookie = token;
  const tab = openTab(server, browser, options);
  tab.store.start({ state: 'valid', userInfo: { uid, nickname, avatar: null, social_providers: [], webauthn: false, isGuest: false } });
  return { server, browser, uid, token, tab };
}

/** The tab links Discord; the server rotates the session at once, and its answer waits for `answer()`. */
async function heldDiscordLink(server: FakeAccounts, tab: Tab, old: string): Promise<{ answer: () => void; linking: Promise<void> }> {
  let answer!: () => void;
  server.holdLink = new Promise((resolve) => (answer = resolve));
  const linking = tab.api
    .request<{ data: { token: string; userInfo: UserInfo } }>('POST', '/oauth/link/discord', { body: { code: 'c', state: 's' } })
    .then(({ data }) => tab.store.adoptRotated(data.data));
  await until(() => !server.tokens.has(old));
  return { answer, linking };
}

/** A new browser's first page: it signs in anonymously as a guest and is ready. */
async function guestTab(): Promise<{ server: FakeAccounts; browser: FakeBrowser; tab: Tab }> {
  const server = new FakeAccounts();
  const browser = new FakeBrowser();
  const tab = openTab(server, browser);
  tab.store.start(NONE);
  await until(() => tab.store.snapshot().status === 'ready');
  return { server, browser, tab };
}

describe('session rules of spec section 4', () => {
  it('no token: an anonymous sign-in, the token stored, then the user info once and a login event; the device later, once', async () => {
    const { server, browser, tab } = await guestTab();
    const { token, userInfo } = tab.store.snapshot();
    expect(server.calls).toEqual(['GET /guest/challenge/', 'POST /guest/login/', 'GET /member/info/']);
    expect(browser.cookie).toBe(token);
    expect(userInfo).toMatchObject({ isGuest: true });
    expect(tab.logins).toEqual([userInfo!.uid]);
    // The fingerprint is not computed while the page loads (decision 066) but once it is quiet.
    expect(server.users.get(userInfo!.uid)!.fingerprint).toBeUndefined();
    expect(tab.quiet).toHaveLength(1);
    tab.quiet.shift()!();
    await until(() => server.users.get(userInfo!.uid)!.fingerprint !== undefined);
    expect(server.users.get(userInfo!.uid)!.fingerprint).toBe('a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6');
    // The next page of the same browser does not record it again.
    const next = openTab(server, browser);
    next.store.start({ state: 'unknown', userInfo: null });
    await until(() => next.store.snapshot().status === 'ready');
    expect(next.quiet).toHaveLength(0);
    expect(server.calls.filter((call) => call === 'POST /guest/device/')).toHaveLength(1);
  });

  it('device sign-in sends the fingerprint with the device id this browser keeps: another browser with the same fingerprint is refused', async () => {
    const { server, browser, tab } = await guestTab();
    const guest = tab.store.snapshot().userInfo!;
    tab.quiet.shift()!();
    await until(() => server.users.get(guest.uid)!.deviceId !== undefined);
    expect(server.users.get(guest.uid)).toMatchObject({ fingerprint: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', deviceId: browser.deviceId });
    // Another browser with the same fingerprint (the same model of device) but its own device id.
    const other = new FakeBrowser();
    const elsewhere = openTab(server, other);
    elsewhere.store.start(NONE);
    await until(() => elsewhere.store.snapshot().status === 'ready');
    await expect(elsewhere.store.signInWithDevice()).rejects.toMatchObject({ status: 404 });
    expect(elsewhere.store.snapshot().userInfo!.uid).not.toBe(guest.uid);
    // A browser that cannot keep a device id (storage unavailable) does not try.
    other.deviceId = null;
    const calls = server.calls.length;
    await expect(elsewhere.store.signInWithDevice()).rejects.toMatchObject({ status: 0 });
    expect(server.calls.length).toBe(calls);
    // The browser that recorded it gets its guest back after another account took over.
    await tab.store.logout();
    await until(() => tab.store.snapshot().status === 'ready' && tab.store.snapshot().userInfo!.uid !== guest.uid);
    expect((await tab.store.signInWithDevice()).uid).toBe(guest.uid);
  });

  it('a member records no device, and a guest who signed in as a member before the quiet moment sends none', async () => {
    const { server, tab } = await guestTab();
    const guest = tab.store.snapshot().userInfo!;
    tab.store.adoptRotated({ token: '9|rotated-token-rotated-token-rotated-token-rotated', userInfo: { ...guest, isGuest: false } });
    for (const task of tab.quiet.splice(0)) task();
    await settle();
    expect(server.calls).not.toContain('POST /guest/device/');
  });

  it('a sign-in in flight when the fingerprint is ready goes first: the guest it replaces sends no device (it would be refused)', async () => {
    const { server, tab } = await guestTab();
    server.member('sam', 'secret-password');
    let answer!: () => void;
    server.holdSignIn = new Promise((resolve) => (answer = resolve));
    const signIn = tab.store.signInWithPassword('sam', 'secret-password');
    for (const task of tab.quiet.splice(0)) task();
    for (let i = 0; i < 5; i++) await settle();
    expect(server.calls).not.toContain('POST /guest/device/');
    answer();
    expect(await signIn).toMatchObject({ nickname: 'sam', isGuest: false });
    for (let i = 0; i < 5; i++) await settle();
    expect(server.calls).not.toContain('POST /guest/device/');
  });

  it('a guest who becomes a member of the same account is a registration, once; a rotation of a member is not', async () => {
    const { tab } = await guestTab();
    const guest = tab.store.snapshot().userInfo!;
    tab.store.adoptRotated({ token: '9|rotated-token-rotated-token-rotated-token-rotated', userInfo: { ...guest, isGuest: false } });
    tab.store.adoptRotated({ token: '9|again-token-again-token-again-token-again-tokenx', userInfo: { ...guest, isGuest: false } });
    expect(tab.registrations).toEqual([guest.uid]);
  });

  it('a token the server already resolved for the page is used as it is: no calls', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.member('ann', 'secret-password');
    browser.cookie = server.issue(uid);
    const tab = openTab(server, browser);
    const userInfo = (await (await server.fetch('/serve/api/member/info/', { headers: { authorization: `Bearer ${browser.cookie}` } })).json()).data.userInfo;
    server.calls = [];
    tab.store.start({ state: 'valid', userInfo });
    await settle();
    expect(tab.store.snapshot()).toEqual({ token: browser.cookie, userInfo, status: 'ready' });
    expect(server.calls).toEqual([]);
    expect(tab.logins).toEqual([]);
  });

  it('the server renders from the page session alone: its snapshot reads nothing of the browser', () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    browser.cookie = server.issue(server.member('cy', 'secret-password'));
    const tab = openTab(server, browser);
    const page: PageSession = { state: 'none', userInfo: null };
    // As on the server, where there is no cookie to read: reading one would fail the page.
    const cookie = browser.cookie;
    Object.defineProperty(browser, 'cookie', {
      configurable: true,
      get: () => {
        throw new ReferenceError('document is not defined');
      },
    });
    expect(tab.store.renderedSnapshot(page)).toEqual({ token: null, userInfo: null, status: 'idle' });
    Object.defineProperty(browser, 'cookie', { configurable: true, writable: true, value: cookie });
    expect(tab.store.snapshot(page).token).toBe(cookie);
  });

  it("hydration's snapshot is the store's own while both say the same (a first visit), and a stable one of the server's view otherwise", async () => {
    const server = new FakeAccounts();
    const first = openTab(server, new FakeBrowser());
    expect(first.store.hydrationSnapshot(NONE)).toBe(first.store.snapshot(NONE));

    const browser = new FakeBrowser();
    const uid = server.member('bea', 'secret-password');
    browser.cookie = server.issue(uid);
    const member = openTab(server, browser);
    const userInfo = (await (await server.fetch('/serve/api/member/info/', { headers: { authorization: `Bearer ${browser.cookie}` } })).json()).data.userInfo;
    const page: PageSession = { state: 'valid', userInfo };
    const rendered = member.store.hydrationSnapshot(page);
    expect(rendered).toEqual({ token: null, userInfo, status: 'ready' });
    expect(member.store.hydrationSnapshot(page)).toBe(rendered);
    expect(member.store.renderedSnapshot(page)).toBe(rendered);
    expect(member.store.snapshot(page).token).toBe(browser.cookie);
  });

  it('a stored token whose user info is refused is cleared, then a new anonymous sign-in follows', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    browser.cookie = '7|revoked-token-revoked-token-revoked-token-revoked';
    const tab = openTab(server, browser);
    tab.store.start({ state: 'unknown', userInfo: null });
    await until(() => tab.store.snapshot().status === 'ready');
    expect(server.calls).toEqual(['GET /member/info/', 'GET /guest/challenge/', 'POST /guest/login/', 'GET /member/info/']);
    expect(browser.cookie).not.toContain('revoked');
    expect(tab.store.snapshot().userInfo?.isGuest).toBe(true);
  });

  it('a token the server found invalid for the page goes straight to a new anonymous sign-in', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    browser.cookie = '7|revoked-token-revoked-token-revoked-token-revoked';
    const tab = openTab(server, browser);
    tab.store.start({ state: 'invalid', userInfo: null });
    await until(() => tab.store.snapshot().status === 'ready');
    expect(server.calls).toEqual(['GET /guest/challenge/', 'POST /guest/login/', 'GET /member/info/']);
  });

  it("user info that cannot be reached, after the client's retries, clears the session and starts a new anonymous one", async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.member('bea', 'secret-password');
    const token = server.issue(uid);
    browser.cookie = token;
    server.failInfo = 'network';
    server.failInfoOf = token;
    const tab = openTab(server, browser);
    tab.store.start({ state: 'unknown', userInfo: null });
    await until(() => tab.store.snapshot().status === 'ready');
    // Three tries of the member's token (the client's rules), then a guest of its own.
    expect(server.calls.slice(0, 3)).toEqual(['GET /member/info/', 'GET /member/info/', 'GET /member/info/']);
    expect(server.calls.slice(3, 5)).toEqual(['GET /guest/challenge/', 'POST /guest/login/']);
    expect(tab.store.snapshot().token).not.toBe(token);
    expect(tab.store.snapshot().userInfo?.isGuest).toBe(true);
  });

  it('a server error loading user info clears the session too', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const token = server.issue(server.member('bea', 'secret-password'));
    browser.cookie = token;
    server.failInfo = 'server';
    server.failInfoOf = token;
    const tab = openTab(server, browser);
    tab.store.start({ state: 'unknown', userInfo: null });
    await until(() => server.calls.includes('POST /guest/login/'));
    expect(server.calls.filter((call) => call === 'GET /member/info/').length).toBeGreaterThanOrEqual(3);
    expect(tab.store.snapshot().token).not.toBe(token);
  });

  it('an offline device keeps its session; the next navigation online fetches the user info silently', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.member('bea', 'secret-password');
    const token = server.issue(uid);
    browser.cookie = token;
    browser.online = false;
    server.failInfo = 'network';
    const tab = openTab(server, browser);
    tab.store.start({ state: 'unknown', userInfo: null });
    await until(() => tab.store.snapshot().status === 'idle' && server.calls.length === 3);
    expect(tab.store.snapshot()).toEqual({ token, userInfo: null, status: 'idle' });
    browser.online = true;
    server.failInfo = null;
    tab.store.refreshIfIncomplete();
    await until(() => tab.store.snapshot().status === 'ready');
    expect(tab.store.snapshot().userInfo?.uid).toBe(uid);
    expect(server.calls.filter((call) => call === 'POST /guest/login/')).toEqual([]);
  });

  it('offline, a page names the visitor last seen with the token; signing out forgets it', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.member('cai', 'secret-password');
    const token = server.issue(uid);
    browser.cookie = token;
    const first = openTab(server, browser);
    first.store.start({ state: 'unknown', userInfo: null });
    await until(() => first.store.snapshot().status === 'ready');

    // The next page opens without a network.
    browser.online = false;
    server.failInfo = 'network';
    const offline = openTab(server, browser);
    offline.store.start({ state: 'unknown', userInfo: null });
    await until(() => offline.store.snapshot().status === 'idle' && offline.store.snapshot().userInfo !== null);
    expect(offline.store.snapshot()).toEqual({ token, userInfo: expect.objectContaining({ uid, nickname: 'cai' }), status: 'idle' });

    browser.online = true;
    server.failInfo = null;
    // Back online, the next navigation loads the user info for real.
    const loads = server.calls.length;
    offline.store.refreshIfIncomplete();
    await until(() => offline.store.snapshot().status === 'ready');
    expect(server.calls.slice(loads)).toEqual(['GET /member/info/']);
    await first.store.logout();
    expect(browser.knownUser).toBeNull();
  });

  it('a tab that closes while loading the user info leaves the session to the other tabs', async () => {
    const { server, browser, uid, token, tab: main } = memberTab('cy');
    // A sign-in pop-up: it loads the user info, then closes itself, which aborts the call.
    const popup = openTab(server, browser);
    popup.page.leaving = true;
    server.failInfo = 'network';
    popup.store.start({ state: 'unknown', userInfo: null });
    await until(() => popup.store.snapshot().status === 'idle');
    expect(browser.cookie).toBe(token);
    expect(main.store.snapshot()).toMatchObject({ token, status: 'ready', userInfo: { uid } });
    expect(server.calls).not.toContain('POST /guest/login/');

    // The same failure in a tab that stays is a verdict: the session goes (spec section 4).
    const staying = openTab(server, browser);
    staying.store.start({ state: 'unknown', userInfo: null });
    await until(() => browser.cookie === null);
  });

  it('a tab whose token another tab rotated away meanwhile leaves the newer token in the cookie and takes it', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.member('dee', 'secret-password');
    const old = server.issue(uid);
    browser.cookie = old;
    // The old token's user info is asked for, and refused: meanwhile another tab's credential change rotated it.
    const rotated = server.issue(uid);
    server.tokens.delete(old);
    const tab = openTab(server, browser);
    const shown: Array<string | null> = [];
    tab.store.subscribe(() => shown.push(tab.store.snapshot().token));
    const told: SessionMessage[] = [];
    browser.tabs.push((message) => told.push(message));
    tab.store.start({ state: 'unknown', userInfo: null });
    expect(tab.store.snapshot().token).toBe(old);
    browser.cookie = rotated;
    await until(() => tab.store.snapshot().status === 'ready');
    expect(browser.cookie).toBe(rotated);
    expect(tab.store.snapshot()).toMatchObject({ token: rotated, userInfo: { uid } });
    expect(server.calls).not.toContain('POST /guest/login/');
    // The refusal was about the old token only: the tab never showed itself signed out, nor told the other tabs so.
    expect(shown).not.toContain(null);
    expect(told.map((message) => message.token)).not.toContain(null);
  });

  it("another tab's sign-out seen while this tab's link rotates the session is not adopted: the rotated token is the session", async () => {
    const { server, browser, uid, token: old, tab: page } = memberTab('eve');
    const shown: Array<UserInfo | null> = [];
    page.store.subscribe(() => shown.push(page.store.snapshot().userInfo));
    // The page links Discord: the server rotates the session, and its answer is still on the way.
    const { answer, linking } = await heldDiscordLink(server, page, old);
    // Meanwhile the sign-in pop-up's own call with the old token was refused: it deleted the cookie and said so.
    browser.cookie = null;
    browser.tabs[0]!({ token: null, userInfo: null });
    for (let i = 0; i < 5; i++) await settle();
    expect(page.store.snapshot()).toMatchObject({ token: old, userInfo: { uid } });
    answer();
    await linking;
    await until(() => page.store.snapshot().userInfo?.social_providers.includes('discord') === true);
    for (let i = 0; i < 5; i++) await settle();
    const rotated = page.store.snapshot().token!;
    expect(rotated).not.toBe(old);
    expect(browser.cookie).toBe(rotated);
    expect(shown).not.toContain(null);
  });

  it("a member page's data refused for a token the cookie no longer holds is stale; once that token is the cookie's, a refusal stands", async () => {
    // A crawler's tab, so that a sign-out is not followed by a new guest's token.
    const { server, browser, token: old, tab: page } = memberTab('fay', { bot: true });
    const { answer, linking } = await heldDiscordLink(server, page, old);
    // The data was asked for with the old token, which the server had just revoked: the verdict waits for the link's answer.
    let stale: boolean | null = null;
    void page.store.refusalIsStale(old).then((value) => (stale = value));
    for (let i = 0; i < 5; i++) await settle();
    expect(stale).toBeNull();
    answer();
    await linking;
    await until(() => stale !== null);
    expect(stale).toBe(true);
    const rotated = page.store.snapshot().token!;
    expect(await page.store.refusalIsStale(rotated)).toBe(false);
    // A sign-out leaves no newer token: the refusal stands.
    await page.store.logout();
    browser.cookie = null;
    expect(await page.store.refusalIsStale(rotated)).toBe(false);
  });

  it('setting a different token loads its user info and reports a login with its uid; the same token does nothing', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const tab = openTab(server, browser, { bot: true });
    tab.store.start(NONE);
    const uid = server.member('cat', 'secret-password');
    const token = server.issue(uid);
    await tab.store.setToken(token);
    expect(tab.store.snapshot()).toMatchObject({ token, userInfo: { uid }, status: 'ready' });
    expect(browser.cookie).toBe(token);
    expect(tab.logins).toEqual([uid]);
    server.calls = [];
    await tab.store.setToken(token);
    expect(server.calls).toEqual([]);
    expect(tab.logins).toEqual([uid]);
  });

  it('a refused password keeps the current session; the right one replaces it', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.member('dan', 'right-password');
    const tab = openTab(server, browser);
    tab.store.start(NONE);
    await until(() => tab.store.snapshot().status === 'ready');
    const guest = tab.store.snapshot();
    await expect(tab.store.signInWithPassword('dan', 'wrong-password')).rejects.toMatchObject({
      status: 401,
      message: 'The username or password is incorrect.',
    });
    expect(tab.store.snapshot()).toEqual(guest);
    await tab.store.signInWithPassword('dan', 'right-password');
    expect(tab.store.snapshot().userInfo).toMatchObject({ uid, isGuest: false });
  });

  it('logout always clears, even when the server fails, then signs in anonymously; the failure is rethrown', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.member('eve', 'secret-password');
    const tab = openTab(server, browser);
    tab.store.start(NONE);
    await until(() => tab.store.snapshot().status === 'ready');
    await tab.store.signInWithPassword('eve', 'secret-password');
    server.failLogout = true;
    await expect(tab.store.logout()).rejects.toMatchObject({ status: 500, message: 'The server had a problem.' });
    await until(() => tab.store.snapshot().status === 'ready');
    expect(tab.store.snapshot().userInfo).toMatchObject({ isGuest: true });
    expect(tab.store.snapshot().userInfo!.uid).not.toBe(uid);
  });

  it("a refused anonymous sign-in shows nothing, lets the visitor play on, and is tried again after the server's wait", async () => {
    const server = new FakeAccounts();
    server.failGuest = { status: 429, message: 'Too many attempts. Please try again in 60 seconds.', data: { retryAfter: 60 } };
    const browser = new FakeBrowser();
    const tab = openTab(server, browser);
    tab.store.start(NONE);
    await until(() => tab.later.length === 1);
    expect(tab.store.snapshot()).toEqual({ token: null, userInfo: null, status: 'idle' });
    expect(tab.later[0]!.ms).toBe(60_000);
    // The client's own retries (spec section 9), then nothing until the wait is over, navigation or not.
    expect(server.calls.filter((call) => call === 'POST /guest/login/')).toHaveLength(3);
    tab.store.refreshIfIncomplete();
    await tab.store.signInAnonymously();
    expect(server.calls.filter((call) => call === 'POST /guest/login/')).toHaveLength(3);

    server.failGuest = null;
    tab.clock.now += 60_000;
    tab.later.shift()!.task();
    await until(() => tab.store.snapshot().status === 'ready');
    expect(tab.store.snapshot().userInfo?.isGuest).toBe(true);
  });

  it('backs off 30 s, then 60 s, when the server gives no wait; a navigation after the wait tries again', async () => {
    const server = new FakeAccounts();
    server.failGuest = { status: 503, message: 'Unavailable.' };
    const tab = openTab(server, new FakeBrowser());
    tab.store.start(NONE);
    await until(() => tab.later.length === 1);
    expect(tab.later.map((l) => l.ms)).toEqual([30_000]);
    tab.clock.now += 30_000;
    tab.store.refreshIfIncomplete();
    await until(() => tab.later.length === 2);
    expect(tab.later.map((l) => l.ms)).toEqual([30_000, 60_000]);
    server.failGuest = null;
    tab.clock.now += 60_000;
    tab.store.refreshIfIncomplete();
    await until(() => tab.store.snapshot().status === 'ready');
  });

  it('a script that skips the challenge gets no account; the store always solves it', async () => {
    const server = new FakeAccounts();
    const direct = await server.fetch('/serve/api/guest/login/', { method: 'POST', body: '{}' });
    expect(direct.status).toBe(403);
    const tab = openTab(server, new FakeBrowser());
    tab.store.start(NONE);
    await until(() => tab.store.snapshot().status === 'ready');
    expect(server.calls.slice(0, 3)).toEqual(['POST /guest/login/', 'GET /guest/challenge/', 'POST /guest/login/']);
  });

  it('crawlers get no anonymous account', async () => {
    const server = new FakeAccounts();
    const tab = openTab(server, new FakeBrowser(), { bot: true });
    tab.store.start(NONE);
    await settle();
    expect(server.calls).toEqual([]);
  });

  it('"Create account" without a session makes the guest first, on a crawler\'s page too (decision 117)', async () => {
    const server = new FakeAccounts();
    const tab = openTab(server, new FakeBrowser(), { bot: true });
    tab.store.start(NONE);
    await settle();
    const { userInfo } = await tab.store.becomeMember('kim', 'a-long-river-of-stars');
    expect(server.calls.filter((call) => call === 'POST /guest/login/')).toHaveLength(1);
    expect(server.calls).toContain('PATCH /member/password/');
    expect(userInfo).toMatchObject({ uid: tab.store.snapshot().userInfo!.uid });
  });

  it('"Create account" while the guest sign-in waits for its retry tries at once, and a refusal says why, not "token missing"', async () => {
    const server = new FakeAccounts();
    server.failGuest = { status: 429, message: 'Too many attempts. Please try again in 60 seconds.', data: { retryAfter: 60 } };
    const tab = openTab(server, new FakeBrowser());
    tab.store.start(NONE);
    await until(() => tab.later.length === 1);
    await expect(tab.store.becomeMember('kim', 'a-long-river-of-stars')).rejects.toMatchObject({
      status: 429,
      message: 'Too many attempts. Please try again in 60 seconds.',
    });
    expect(server.calls).not.toContain('PATCH /member/password/');
    expect(tab.store.snapshot()).toEqual({ token: null, userInfo: null, status: 'idle' });
  });

  it('a guest token offered to a visitor without a session is adopted, reported and told to the other tabs', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.guest();
    const offered = server.issue(uid);
    const other = openTab(server, browser, { bot: true });
    other.store.start(NONE);
    browser.offer = offered;
    const tab = openTab(server, browser);
    tab.store.start(NONE);
    await until(() => tab.store.snapshot().userInfo?.uid === uid);
    expect(browser.cookie).toBe(offered);
    expect(tab.logins).toEqual([uid]);
    expect(browser.offer).toBeNull();
    expect(browser.questions).toEqual([]);
    await until(() => other.store.snapshot().userInfo?.uid === uid);
    expect(server.calls.filter((call) => call === 'POST /guest/login/')).toEqual([]);
  });

  it('a member token offered to a visitor without a session is never adopted unasked: nothing is stored while the question is open, "Stay as I am" gives a fresh guest', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const sender = server.member('sid', 'secret-password');
    const planted = server.issue(sender);
    let answer!: () => void;
    browser.holdAnswer = new Promise((resolve) => (answer = resolve));
    browser.offer = planted;
    const tab = openTab(server, browser);
    tab.store.start(NONE);
    await until(() => browser.questions.length === 1);
    expect(browser.questions).toEqual([{ offered: sender, current: null }]);
    for (let i = 0; i < 5; i++) await settle();
    // No session meanwhile, and certainly not the sender's.
    expect(browser.cookie).toBeNull();
    expect(tab.store.snapshot().token).toBeNull();
    answer();
    await until(() => tab.store.snapshot().status === 'ready');
    expect(tab.store.snapshot().userInfo).toMatchObject({ isGuest: true });
    expect(tab.store.snapshot().userInfo!.uid).not.toBe(sender);
    expect(browser.cookie).not.toBe(planted);
    expect(tab.logins).not.toContain(sender);
  });

  it('a member token offered to a visitor without a session is adopted once they choose "Continue as …"', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const sender = server.member('sid', 'secret-password');
    const planted = server.issue(sender);
    browser.confirmAnswer = true;
    browser.offer = planted;
    const tab = openTab(server, browser);
    tab.store.start(NONE);
    await until(() => tab.store.snapshot().userInfo?.uid === sender);
    expect(browser.questions).toEqual([{ offered: sender, current: null }]);
    expect(browser.cookie).toBe(planted);
    expect(tab.logins).toEqual([sender]);
    expect(server.calls).not.toContain('POST /guest/login/');
  });

  it('an empty guest gives way to an offered guest token without a question, but is asked about a member token', async () => {
    const { server, browser, tab } = await guestTab();
    const mine = tab.store.snapshot();
    const member = server.member('gia', 'secret-password');
    await tab.store.offerToken(server.issue(member));
    expect(browser.questions).toEqual([{ offered: member, current: mine.userInfo!.uid }]);
    expect(tab.store.snapshot().token).toBe(mine.token);
    expect(browser.cookie).toBe(mine.token);

    const other = server.guest();
    await tab.store.offerToken(server.issue(other));
    expect(tab.store.snapshot().userInfo?.uid).toBe(other);
    expect(browser.questions).toHaveLength(1);
  });

  it('a guest that holds something (a play, a favourite, a save) is asked before a guest token replaces it, and kept by "Stay as I am"', async () => {
    const { server, browser, tab } = await guestTab();
    const mine = tab.store.snapshot();
    server.holding.add(mine.userInfo!.uid);
    const planted = server.issue(server.guest());
    await tab.store.offerToken(planted);
    expect(browser.questions).toEqual([{ offered: Number(planted.split('|')[0]), current: mine.userInfo!.uid }]);
    expect(tab.store.snapshot()).toMatchObject({ token: mine.token, userInfo: { uid: mine.userInfo!.uid } });
    expect(browser.cookie).toBe(mine.token);
    expect(tab.logins).toEqual([mine.userInfo!.uid]);

    // When the server cannot say whether the guest holds anything, the visitor is asked too.
    server.holding.clear();
    server.failEmpty = true;
    await tab.store.offerToken(planted);
    expect(browser.questions).toHaveLength(2);
    expect(browser.cookie).toBe(mine.token);
  });

  it("a token still in the page's own address (no server redirect) is offered exactly as the server's offer is", async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const sender = server.member('sid', 'secret-password');
    const tab = openTab(server, browser);
    tab.store.start(NONE, server.issue(sender));
    await until(() => tab.store.snapshot().status === 'ready');
    expect(browser.questions).toEqual([{ offered: sender, current: null }]);
    expect(tab.store.snapshot().userInfo).toMatchObject({ isGuest: true });
    expect(tab.store.snapshot().userInfo!.uid).not.toBe(sender);
  });

  it("a signed-in member keeps their session unless they confirm the switch, which names the offered account, a guest's token too", async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const me = server.member('mia', 'secret-password');
    const mine = server.issue(me);
    const stranger = server.member('sam', 'secret-password');
    const planted = server.issue(stranger);
    browser.cookie = mine;
    // A visitor from another site's link: the server saw no cookie (SameSite=Strict), the page does.
    browser.offer = planted;
    const tab = openTab(server, browser);
    tab.store.start(NONE);
    await until(() => browser.questions.length === 1 && tab.store.snapshot().status === 'ready');
    expect(browser.questions).toEqual([{ offered: stranger, current: me }]);
    expect(browser.cookie).toBe(mine);
    expect(tab.store.snapshot().userInfo?.uid).toBe(me);
    expect(tab.logins).toEqual([]);

    await tab.store.offerToken(server.issue(server.guest()));
    expect(browser.questions).toHaveLength(2);
    expect(browser.cookie).toBe(mine);

    browser.confirmAnswer = true;
    await tab.store.offerToken(planted);
    expect(browser.cookie).toBe(planted);
    expect(tab.store.snapshot().userInfo?.uid).toBe(stranger);
    expect(tab.logins).toEqual([stranger]);
  });

  it('an offered token the server refuses changes nothing, and a visitor without a session still gets one', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    browser.offer = `9|${'z'.repeat(60)}`;
    const tab = openTab(server, browser);
    tab.store.start(NONE);
    await until(() => tab.store.snapshot().status === 'ready');
    expect(tab.store.snapshot().userInfo?.isGuest).toBe(true);
    expect(browser.cookie).not.toBe(`9|${'z'.repeat(60)}`);
    expect(browser.questions).toEqual([]);
  });
});

describe('several tabs', () => {
  it('two tabs opened together create one anonymous account between them', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const [a, b] = [openTab(server, browser), openTab(server, browser)];
    a.store.start(NONE);
    b.store.start(NONE);
    await until(() => a.store.snapshot().status === 'ready' && b.store.snapshot().status === 'ready');
    expect(server.calls.filter((call) => call === 'POST /guest/login/')).toHaveLength(1);
    expect(a.store.snapshot().token).toBe(b.store.snapshot().token);
    expect(a.store.snapshot().userInfo).toEqual(b.store.snapshot().userInfo);
  });

  it('a sign-in, a profile change and a sign-out in one tab are adopted by the other', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const uid = server.member('gus', 'secret-password');
    const [a, b] = [openTab(server, browser), openTab(server, browser)];
    a.store.start(NONE);
    b.store.start(NONE);
    await until(() => b.store.snapshot().status === 'ready');

    await a.store.signInWithPassword('gus', 'secret-password');
    await until(() => b.store.snapshot().userInfo?.uid === uid);
    expect(b.store.snapshot().token).toBe(a.store.snapshot().token);
    // The tab that signed in reports the login; the one that adopted it does not.
    expect(b.logins).not.toContain(uid);

    a.store.updateUserInfo({ ...a.store.snapshot().userInfo!, nickname: 'Gus the Great' });
    await until(() => b.store.snapshot().userInfo?.nickname === 'Gus the Great');

    // A guest becoming a member, and a profile change, take nothing from the other tab: nothing to tell.
    expect(b.endedElsewhere).toEqual([]);

    await a.store.logout();
    await until(() => b.store.snapshot().userInfo?.isGuest === true && a.store.snapshot().userInfo?.isGuest === true);
    expect(b.store.snapshot().token).toBe(a.store.snapshot().token);
    expect(b.store.snapshot().token).toBe(browser.cookie);
    // The other tab tells the person once that the member is gone; the tab that signed out tells nothing of the kind.
    expect(b.endedElsewhere).toHaveLength(1);
    expect(b.endedElsewhere[0]!.ended).toBe(uid);
    expect([null, b.store.snapshot().userInfo!.uid]).toContain(b.endedElsewhere[0]!.next);
    expect(a.endedElsewhere).toEqual([]);
  });

  it('a switch to another member in one tab is told in the other, naming both', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const first = server.member('hal', 'secret-password');
    const second = server.member('ida', 'secret-password');
    const [a, b] = [openTab(server, browser), openTab(server, browser)];
    a.store.start(NONE);
    b.store.start(NONE);
    await until(() => b.store.snapshot().status === 'ready');
    await a.store.signInWithPassword('hal', 'secret-password');
    await until(() => b.store.snapshot().userInfo?.uid === first);
    await a.store.signInWithPassword('ida', 'secret-password');
    await until(() => b.store.snapshot().userInfo?.uid === second);
    expect(b.endedElsewhere).toEqual([{ ended: first, next: second }]);
  });

  it('a message that no longer matches the shared token cookie is ignored', async () => {
    const server = new FakeAccounts();
    const browser = new FakeBrowser();
    const tab = openTab(server, browser, { bot: true });
    tab.store.start(NONE);
    browser.cookie = 'newer|token';
    browser.tabs[0]!({ token: 'older|token', userInfo: null });
    expect(tab.store.snapshot().token).toBeNull();
  });
});
