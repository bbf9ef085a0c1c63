import type { GuestChallenge, PasswordUpdate, UserInfo } from '#common/api/accounts.schema.ts';
import { type ApiClient, ApiError } from '../../lib/api-client.ts';
import type { PageSession } from './page-session.ts';

export type SessionStatus = 'idle' | 'loading' | 'ready';

/** The browser's session (spec section 3) and whether a call about it is under way. */
export interface SessionSnapshot {
  token: string | null;
  userInfo: UserInfo | null;
  status: SessionStatus;
}

/** What one tab tells the others whenever its token or user info settles (spec section 4). */
export interface SessionMessage {
  token: string | null;
  userInfo: UserInfo | null;
}

export interface SessionChannel {
  post(message: SessionMessage): void;
  listen(handler: (message: SessionMessage) => void): () => void;
}

/** Everything the store needs from the browser; tests give it their own. */
export interface SessionEnvironment {
  api: Pick<ApiClient, 'get' | 'post' | 'patch' | 'settled'>;
  /** The token cookie, the one place the token is kept (shared by the site's tabs). */
  readToken(): string | null;
  writeToken(token: string | null): void;
  channel: SessionChannel | null;
  /** Runs `task` while no other tab of the site runs one (Web Locks), or at once without them. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** The device fingerprint, or null when it cannot be had in time. */
  fingerprint(): Promise<string | null>;
  /** The random device id this browser keeps (decision 081), or null when it cannot keep one. */
  deviceId(): string | null;
  /** Runs a task once the page has been quiet for a while (decision 066); tests run it themselves. */
  whenQuiet(task: () => void): void;
  /**
   * The last user info this browser saw for a token (localStorage), so a page opened offline
   * still names its visitor; `write(null)` forgets it.
   */
  knownUserInfo: { read(token: string): UserInfo | null; write(token: string | null, userInfo: UserInfo | null): void };
  /** The guests whose device this browser has recorded (POST /guest/device/), so it is sent once. */
  recordedDevices: { has(uid: number): boolean; add(uid: number): void };
  /** Whether the server took the browser for a crawler (crawlers get no account): its verdict on the user agent, written in the page. */
  isCrawler(): boolean;
  /** The login tracking event (spec section 4: setting a different token reports its uid). */
  onLogin(uid: number): void;
  /** The registration tracking event (spec section 3): a guest became a member of the same account. */
  onRegistration(uid: number): void;
  /**
   * Another tab ended this tab's member session (a sign-out, another account): `next` is the
   * session this tab now shows, null until the new guest arrives. The person is told (decision 117).
   */
  onSessionEndedElsewhere(ended: UserInfo, next: UserInfo | null): void;
  /** Solves a guest challenge (decision 054): a nonce for it. */
  solveChallenge(challenge: GuestChallenge): Promise<string>;
  /** Runs a task later (a retry); tests run it themselves. */
  later(task: () => void, ms: number): void;
  now(): number;
  /** Whether the device has a network at all (navigator.onLine): offline, no call is a verdict on the session. */
  online(): boolean;
  /** Whether the page is going away (closed or left): its aborted calls are no verdict on the session either. */
  leaving(): boolean;
  /** Reads and forgets the token the server verified from the page's URL (decision 050), or null. */
  takeTokenOffer(): string | null;
  /**
   * Asks the visitor whether to continue as the offered account ("Continue as {name}"), naming
   * the current one when there is one; true only on confirm (decision 050).
   */
  confirmSwitch(offered: UserInfo, current: UserInfo | null): Promise<boolean>;
  /** A translated text, by `namespace:key`. */
  message(key: 'errors:unauthenticated' | 'accounts:device.unavailable'): string;
}

/** Waits between failed anonymous sign-ins: 30 s, doubling up to 10 minutes. */
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 10 * 60_000;

const EMPTY: SessionSnapshot = { token: null, userInfo: null, status: 'idle' };

/**
 * The session in the browser, following spec section 4: a visitor without a token gets an
 * anonymous account; a stored token's user info is loaded, and a new anonymous sign-in follows
 * when that fails; setting another token loads its user info and reports a login; a failed
 * user-info load clears the session (after the API client's retries, decision 065); logout always clears it; every settled change is sent to
 * the other tabs, which adopt it.
 */
export class SessionStore {
  readonly #environment: () => SessionEnvironment;
  #env: SessionEnvironment | null = null;
  #state: SessionSnapshot = EMPTY;
  #seeded = false;
  #started = false;
  /** Bumped whenever the token changes: answers about an earlier token are dropped. */
  #generation = 0;
  #anonymous: Promise<void> | null = null;
  /** Failed anonymous sign-ins in a row, and when the next may be tried (decision 054). */
  #anonymousFailures = 0;
  #anonymousRetryAt = 0;
  /** The user info shown is the one remembered from an earlier page (offline), not loaded yet. */
  #remembered = false;
  /** The guest whose device recording is scheduled on this page. */
  #deviceScheduledFor: number | null = null;
  readonly #listeners = new Set<() => void>();
  readonly #renderedSnapshots = new WeakMap<PageSession, SessionSnapshot>();

  constructor(environment: () => SessionEnvironment) {
    this.#environment = environment;
  }

  get #e(): SessionEnvironment {
    this.#env ??= this.#environment();
    return this.#env;
  }

  subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /**
   * The current session. The first call in the browser takes the page's server-rendered session
   * (the token cookie's user, looked up by the server) as its starting point, so the first
   * paint and the hydrated page agree.
   */
  snapshot(initial?: PageSession): SessionSnapshot {
    if (!this.#seeded && initial) this.#seed(initial);
    return this.#state;
  }

  /**
   * What the server rendered for `initial` (the root loader's session, never a token): one object
   * per page session. It reads nothing of the browser, so the server renders with it too.
   */
  renderedSnapshot(initial: PageSession): SessionSnapshot {
    let rendered = this.#renderedSnapshots.get(initial);
    if (!rendered) {
      rendered = { token: null, userInfo: initial.userInfo, status: initial.userInfo ? 'ready' : 'idle' };
      this.#renderedSnapshots.set(initial, rendered);
    }
    return rendered;
  }

  /**
   * Hydration's snapshot in the browser. While the browser's session says what the server rendered
   * (a first visit: no token, no user), it is the store's own snapshot: React then finds nothing
   * changed once it has hydrated, and does not render every part that shows the session again,
   * synchronously, in the task that ends hydration (docs/performance.md).
   */
  hydrationSnapshot(initial: PageSession): SessionSnapshot {
    const current = this.snapshot(initial);
    const rendered = this.renderedSnapshot(initial);
    const same = current.token === rendered.token && current.userInfo === rendered.userInfo && current.status === rendered.status;
    return same ? current : rendered;
  }

  /** Applies the session rules once the page runs: restores or creates the session, listens to other tabs. */
  start(initial: PageSession, urlToken: string | null = null): void {
    if (this.#started) return;
    this.#started = true;
    if (!this.#seeded) this.#seed(initial);
    this.#e.channel?.listen((message) => void this.#adopt(message));
    // A token still in the page's own address (the server's redirect did not happen: a copy kept
    // offline by an older worker) is offered exactly as the server's verified one is.
    const offer = this.#e.takeTokenOffer() ?? urlToken;
    if (offer && offer !== this.#state.token) {
      void this.offerToken(offer, initial);
      return;
    }
    const { token, userInfo } = this.#state;
    if (token && userInfo) return;
    if (token && initial.state === 'invalid') {
      // The server already tried this token's user info for the page and was refused.
      this.#clear();
      void this.signInAnonymously();
      return;
    }
    if (token) {
      void this.#restore();
      return;
    }
    void this.signInAnonymously();
  }

  /**
   * A token that arrived in a page's URL (spec section 4), decision 050. It is checked with the
   * server first. A member's token is never adopted without the visitor's confirmation naming the
   * account, whatever session the visitor has: whoever sent the link still knows its password, so
   * whatever the visitor then linked, entered or bought would be theirs. A guest's token is adopted
   * silently only by a visitor without a session or with a guest that holds nothing; anyone else
   * is asked too. "Stay as I am" keeps the current session, or starts a fresh guest. The token is
   * stored only once adopted; either way the page ends with a session.
   */
  async offerToken(offer: string, initial?: PageSession): Promise<void> {
    const offered = await this.#userInfoOf(offer);
    const current = await this.#settleCurrent(initial);
    if (offered && current !== null && current !== 'unknown' && current.uid === offered.uid) return;
    if (offered) {
      const adopt = (await this.#adoptsWithoutAsking(offered, current)) || (await this.#e.confirmSwitch(offered, current === 'unknown' ? null : current));
      if (adopt) await this.setToken(offer).catch(() => undefined);
    }
    if (!this.#state.token) await this.signInAnonymously();
  }

  /** Only a guest's token, offered to a visitor with nothing to lose: no session, or a guest that holds nothing. */
  async #adoptsWithoutAsking(offered: UserInfo, current: UserInfo | 'unknown' | null): Promise<boolean> {
    if (!offered.isGuest) return false;
    if (current === null) return true;
    if (current === 'unknown' || !current.isGuest) return false;
    try {
      const { data } = await this.#e.api.get('/guest/empty/');
      return data.empty && this.#state.userInfo?.uid === current.uid;
    } catch {
      // Not known to hold nothing: ask.
      return false;
    }
  }

  /** The user info of a token other than the session's, or null when the server refuses it. */
  async #userInfoOf(token: string): Promise<UserInfo | null> {
    try {
      const { data } = await this.#e.api.get('/member/info/', { headers: { Authorization: `Bearer ${token}` } });
      return data.userInfo;
    } catch {
      return null;
    }
  }

  /** The current session's user info, loading it if needed; `unknown` when the server could not say. */
  async #settleCurrent(initial: PageSession | undefined): Promise<UserInfo | 'unknown' | null> {
    const { token, userInfo } = this.#state;
    if (userInfo) return userInfo;
    if (!token) return null;
    if (initial?.state === 'invalid') {
      this.#clear();
      return null;
    }
    try {
      return await this.loadUserInfo();
    } catch {
      return this.#state.token ? 'unknown' : null;
    }
  }

  /**
   * Spec section 4: a token without user info gets it silently, on navigation; a visitor whose
   * anonymous sign-in failed earlier is tried again, once the wait is over.
   */
  refreshIfIncomplete(): void {
    const { token, userInfo, status } = this.#state;
    if (!this.#started || status === 'loading') return;
    if (!token) {
      if (this.#anonymousFailures > 0 && this.#e.now() >= this.#anonymousRetryAt) void this.signInAnonymously();
      return;
    }
    if (!userInfo || this.#remembered) void this.#restore();
  }

  /**
   * Stores a token and loads its user info; a token other than the current one reports a login
   * with its uid. Rejects (and clears the session) when the user info cannot be had.
   */
  async setToken(token: string): Promise<UserInfo> {
    if (token === this.#state.token && this.#state.userInfo) return this.#state.userInfo;
    const changed = token !== this.#state.token;
    this.#useToken(token);
    const userInfo = await this.loadUserInfo();
    this.#anonymousFailures = 0;
    if (changed) this.#e.onLogin(userInfo.uid);
    return userInfo;
  }

  /** GET /member/info/ for the current token. Spec section 5: without a token, error 401. */
  async loadUserInfo(): Promise<UserInfo> {
    const token = this.#state.token;
    if (!token) throw new ApiError(401, this.#e.message('errors:unauthenticated'), null, { errorCode: 'unauthenticated' });
    const generation = this.#generation;
    this.#set({ status: 'loading' });
    try {
      const { data } = await this.#e.api.get('/member/info/');
      if (generation === this.#generation) this.#set({ userInfo: data.userInfo, status: 'ready' }, true);
      return data.userInfo;
    } catch (error) {
      // Spec section 4: any failure clears the session, once the API client's retries are spent
      // (network errors, 429 and 5xx are retried). A device without a network keeps its session
      // for when it is back (decision 065): an offline game must not cost a member the sign-in.
      // Nor does a page that is going away: closing it aborts its calls, and clearing the shared
      // cookie then would sign every other tab out (a sign-in pop-up closes itself mid-call).
      if (generation !== this.#generation) throw error;
      if (!this.#e.online() || this.#e.leaving()) {
        // Offline: the name and avatar last seen with this token, until the network is back.
        const known = this.#e.online() ? null : this.#e.knownUserInfo.read(token);
        this.#set(known ? { userInfo: known, status: 'idle' } : { status: 'idle' });
        this.#remembered = known !== null;
        throw error;
      }
      // A refusal is about the token it was sent with. A call of this page still in flight may be
      // storing that token's successor (a rotation), and another tab may have stored one already:
      // then the session is the newer token, never signed out (decision 027).
      await this.#e.api.settled();
      if (generation !== this.#generation) throw error;
      const stored = this.#e.readToken();
      if (stored !== null && stored !== token) {
        this.#useToken(stored);
        return this.loadUserInfo();
      }
      this.#clear();
      throw error;
    }
  }

  /**
   * Whether "not signed in", answered to a request sent with the token `sentWith` (a member page's
   * data), is about an earlier token only: once this page's calls in flight are over (one may be
   * storing a rotated token), the cookie holds another token, which the answer says nothing about.
   * The request is then made again with it rather than followed to /login (decision 027).
   */
  async refusalIsStale(sentWith: string | null): Promise<boolean> {
    await this.#e.api.settled();
    const stored = this.#e.readToken();
    return stored !== null && stored !== sentWith;
  }

  /** The token cookie as it is now: the token a request sent now carries. */
  storedToken(): string | null {
    return this.#e.readToken();
  }

  /**
   * Anonymous sign-in (POST /guest/login/ with the solved challenge), then the user info; the
   * device fingerprint follows once the page is quiet (decision 066). One tab at a time: a tab that waited adopts the token another tab stored
   * meanwhile. Crawlers get no account. A failure shows nothing (decision 054): the visitor plays
   * on without an account and is tried again later (after the server's Retry-After, else 30 s,
   * doubling up to 10 minutes), on a timer and on the next navigation.
   */
  signInAnonymously(): Promise<void> {
    this.#anonymous ??= this.#signInAnonymously().finally(() => {
      this.#anonymous = null;
    });
    return this.#anonymous;
  }

  async #signInAnonymously(): Promise<void> {
    if (this.#e.now() < this.#anonymousRetryAt) return;
    try {
      if (this.#e.isCrawler()) return;
      await this.#newGuest();
    } catch (error) {
      this.#scheduleAnonymousRetry(error);
    }
  }

  /** A new guest account (or the one another tab stored meanwhile), one tab at a time; rejects when it cannot be had. */
  async #newGuest(): Promise<void> {
    try {
      await this.#e.exclusive(async () => {
        const stored = this.#e.readToken();
        if (stored) {
          if (stored !== this.#state.token || !this.#state.userInfo) {
            this.#useToken(stored);
            await this.loadUserInfo();
          }
          return;
        }
        this.#set({ status: 'loading' });
        const { data } = await this.#e.api.post('/guest/login/', await this.#solvedChallenge());
        await this.setToken(data.token);
      });
    } catch (error) {
      if (this.#state.status === 'loading') this.#set({ status: 'idle' });
      throw error;
    }
  }

  async #solvedChallenge(): Promise<{ challenge: string; nonce: string }> {
    const { data } = await this.#e.api.get('/guest/challenge/');
    return { challenge: data.challenge, nonce: await this.#e.solveChallenge(data) };
  }

  #scheduleAnonymousRetry(error: unknown): void {
    this.#anonymousFailures++;
    const retryAfter = error instanceof ApiError ? Number((error.data as { retryAfter?: unknown } | null)?.retryAfter) : Number.NaN;
    const backoff = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.#anonymousFailures - 1));
    const delay = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(MAX_RETRY_MS * 6, retryAfter * 1000) : backoff;
    this.#anonymousRetryAt = this.#e.now() + delay;
    this.#e.later(() => {
      if (!this.#state.token) void this.signInAnonymously();
    }, delay);
  }

  /**
   * Username and password sign-in. A refused attempt keeps the current session (see decision 027).
   * With two-step sign-in on, the 401 of reason `two_factor_required` carries the ticket of the code step (login-list.tsx).
   */
  async signInWithPassword(username: string, password: string): Promise<UserInfo> {
    const { data } = await this.#e.api.post('/username/login/', { username, password });
    return this.setToken(data.token);
  }

  /** Device sign-in: back into the guest account this browser recorded, by its fingerprint and device id (decision 081). */
  async signInWithDevice(): Promise<UserInfo> {
    const fingerprint = await this.#e.fingerprint();
    const deviceId = this.#e.deviceId();
    if (!fingerprint || !deviceId) throw new ApiError(0, this.#e.message('accounts:device.unavailable'));
    const { data } = await this.#e.api.post('/fingerprint/login/', { fingerprint, deviceId });
    return this.setToken(data.token);
  }

  /**
   * A guest chooses a username and password and becomes a member of the same account. A visitor
   * without a session asked for an account, so one is made first, also on a page the server took
   * for a crawler's and while a refused anonymous sign-in waits for its retry; when it cannot be
   * had, the reason is the guest sign-in's own (a wait, the page still loading, no network),
   * never "token missing" (decision 117).
   */
  async becomeMember(username: string, password: string): Promise<PasswordUpdate> {
    if (!this.#state.token) await this.signInAnonymously();
    if (!this.#state.token) await this.#newGuest();
    const { data } = await this.#e.api.patch('/member/password/', { username, password });
    this.adoptRotated(data);
    return data;
  }

  /**
   * The new token a credential change answers with (decision 050): the earlier one no longer
   * works. Stored, reported as a login (spec section 4: a different token) and sent to the other
   * tabs; the answer's user info is current, so none is fetched.
   */
  adoptRotated(update: Pick<PasswordUpdate, 'token' | 'userInfo'>): void {
    const before = this.#state.userInfo;
    this.#generation++;
    this.#e.writeToken(update.token);
    this.#set({ token: update.token, userInfo: update.userInfo, status: 'ready' }, true);
    this.#e.onLogin(update.userInfo.uid);
    if (before?.isGuest && !update.userInfo.isGuest && before.uid === update.userInfo.uid) this.#e.onRegistration(update.userInfo.uid);
  }

  /** Logout (spec section 4): the server call, then always a cleared session, then a new anonymous one. */
  async logout(): Promise<void> {
    try {
      await this.#e.api.post('/logout/');
    } finally {
      this.#clear();
      void this.signInAnonymously();
    }
  }

  /** New user info from a profile change; the other tabs get it too. */
  updateUserInfo(userInfo: UserInfo): void {
    if (!this.#state.token) return;
    this.#set({ userInfo, status: 'ready' }, true);
  }

  #seed(initial: PageSession): void {
    this.#seeded = true;
    const token = this.#e.readToken();
    const userInfo = token && initial.state === 'valid' ? initial.userInfo : null;
    this.#state = { token, userInfo, status: userInfo ? 'ready' : 'idle' };
    if (token && userInfo) this.#e.knownUserInfo.write(token, userInfo);
  }

  async #restore(): Promise<void> {
    try {
      await this.loadUserInfo();
    } catch {
      // Spec section 4: a stored token whose user info fails leads to a new anonymous sign-in.
      if (!this.#state.token) await this.signInAnonymously();
    }
  }

  #useToken(token: string): void {
    this.#generation++;
    this.#e.writeToken(token);
    this.#set({ token, userInfo: null, status: 'loading' });
  }

  #clear(): void {
    this.#generation++;
    // Only this tab's token is deleted: another tab may have stored a newer one meanwhile (a
    // rotation, a sign-in), which a failure seen with the old one says nothing about.
    const stored = this.#e.readToken();
    if (stored === null || stored === this.#state.token) this.#e.writeToken(null);
    this.#set({ token: null, userInfo: null, status: 'idle' }, true);
  }

  /**
   * Another tab's change. The token cookie is shared, so a message that no longer matches it is
   * stale. Another tab's sign-out waits for this page's calls in flight: one of them may be storing
   * the rotated token whose predecessor the other tab saw refused (a sign-in pop-up's call made
   * while this page links an account), and the message then no longer matches.
   */
  async #adopt(message: SessionMessage): Promise<void> {
    if (message.token === null && this.#state.token !== null) await this.#e.api.settled();
    if (message.token !== this.#e.readToken()) return;
    const before = this.#state.userInfo;
    this.#generation++;
    this.#set({ token: message.token, userInfo: message.userInfo, status: message.userInfo ? 'ready' : 'idle' });
    // A member signed out (or switched) in another tab: without a word this tab would go on as a guest.
    if (before && !before.isGuest && message.userInfo?.uid !== before.uid) this.#e.onSessionEndedElsewhere(before, message.userInfo);
  }

  #set(next: Partial<SessionSnapshot>, broadcast = false): void {
    this.#state = { ...this.#state, ...next };
    if ('userInfo' in next) this.#remembered = false;
    if ('token' in next || 'userInfo' in next) {
      const { token, userInfo } = this.#state;
      if (token === null) this.#e.knownUserInfo.write(null, null);
      else if (userInfo) this.#e.knownUserInfo.write(token, userInfo);
    }
    if (broadcast) this.#e.channel?.post({ token: this.#state.token, userInfo: this.#state.userInfo });
    for (const listener of this.#listeners) listener();
    if (this.#started && this.#state.userInfo?.isGuest) this.#recordDeviceLater(this.#state.userInfo.uid);
  }

  /**
   * Links a guest to this device (fingerprint and device id) for a later device sign-in (decisions 066 and 081). The fingerprint is
   * heavy to compute on a slow phone, so it is not done while the page loads but once it has been
   * quiet for a while, and only once per guest and browser; a page left sooner leaves it to the next.
   */
  #recordDeviceLater(uid: number): void {
    if (this.#deviceScheduledFor === uid || this.#e.recordedDevices.has(uid)) return;
    this.#deviceScheduledFor = uid;
    this.#e.whenQuiet(async () => {
      const still = () => this.#state.token !== null && this.#state.userInfo?.uid === uid && this.#state.userInfo.isGuest;
      if (!still()) return;
      const fingerprint = await this.#e.fingerprint();
      const deviceId = this.#e.deviceId();
      // After the calls in flight: one of them may be a sign-in that retires this guest's token.
      await this.#e.api.settled();
      if (!fingerprint || !deviceId || !still()) return;
      try {
        await this.#e.api.post('/guest/device/', { fingerprint, deviceId });
        this.#e.recordedDevices.add(uid);
      } catch {
        // Not recorded: the next page load tries again.
      }
    });
  }
}
