// Playport game SDK, version 1 (docs/game-sdk.md). A game framed by the portal's play page
// loads it from /sdk/v1/playport.js and calls window.Playport. Each call is a message to the play
// page with its own id; the page performs it (the game's opaque origin has no cookies and no
// network of the portal) and answers that id. Version 1 keeps its shape: changes come as /sdk/v2/.
(() => {
  if (window.Playport) return;
  // Answers come only from the page that frames the game; requests go only to the portal's origin.
  // On the games origin the portal fills in its own origin below; loaded from the portal itself
  // (or rebuilt offline by the play page, with the portal's address as its base), it is that origin.
  const served = '__PLAYPORT_PORTAL_ORIGIN__';
  const portalOrigin = served.startsWith('http')
    ? served
    : new URL(/** @type {HTMLScriptElement | null} */ (document.currentScript)?.src || document.baseURI).origin;
  // pay and auth.prompt wait for the player: up to 30 minutes; an ad break a few.
  const TIMEOUTS = { default: 20_000, pay: 30 * 60_000, 'auth.prompt': 30 * 60_000, 'ad.break': 5 * 60_000 };
  // The events a game may listen to; on() refuses any other name.
  const EVENTS = new Set(['purchase', 'auth', 'settings', 'pause', 'resume']);
  const pending = new Map();
  const listeners = new Map();
  let nextId = 1;

  class PlayportError extends Error {
    constructor(code, message) {
      super(message);
      this.name = /** @type {const} */ ('PlayportError');
      /** 'not_framed', 'timeout', 'account_not_secured', 'already_owned', 'not_found', … (docs/game-sdk.md, "Errors") */
      this.code = code;
    }
  }

  addEventListener('message', (event) => {
    if (event.source !== window.parent || window.parent === window || event.origin !== portalOrigin) return;
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    if (message.type === 'playport:response' && pending.has(message.id)) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(new PlayportError(message.error?.code ?? 'failed', message.error?.message ?? 'The portal could not do that.'));
    } else if (message.type === 'playport:event' && typeof message.event === 'string') {
      for (const listener of listeners.get(message.event) ?? []) {
        try {
          listener(message.data);
        } catch (error) {
          console.error(error);
        }
      }
    }
  });

  function call(method, params) {
    if (window.parent === window) return Promise.reject(new PlayportError('not_framed', 'The game is not running inside the portal.'));
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new PlayportError('timeout', `The portal did not answer ${method}.`));
      }, TIMEOUTS[method] ?? TIMEOUTS.default);
      pending.set(id, { resolve, reject, timer });
      window.parent.postMessage({ type: 'playport:request', id, method, params: params ?? {} }, portalOrigin);
    });
  }

  // A consume without the game's own key gets one: a retry of that call is then a new consumption.
  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  function on(event, listener) {
    if (!EVENTS.has(event)) throw new PlayportError('unknown_event', `The portal sends no "${event}" event.`);
    if (typeof listener !== 'function') throw new PlayportError('validation', 'A listener is a function.');
    if (!listeners.has(event)) listeners.set(event, new Set());
    listeners.get(event).add(listener);
    return () => listeners.get(event).delete(listener);
  }

  // --- 1.1: game events, settings, ad breaks (docs/game-sdk.md, "Game", "Settings", "Ads"). ---
  // Signals are posted and never answered: a game does not wait on them.
  const signal = (name) => window.parent !== window && window.parent.postMessage({ type: 'playport:signal', signal: name }, portalOrigin);
  const settings = { muted: false, locale: new URLSearchParams(location.search).get('locale') || document.documentElement.lang || 'en' };
  const applySettings = (data) => {
    if (typeof data?.muted === 'boolean') settings.muted = data.muted;
    if (typeof data?.locale === 'string') settings.locale = data.locale;
    return { ...settings };
  };
  // Kept before any listener of the game, so those read the new values.
  listeners.set('settings', new Set([applySettings]));
  const game = Object.freeze({
    loadingStart: () => void signal('loadingStart'),
    loadingStop: () => void signal('loadingStop'),
    gameplayStart: () => void signal('gameplayStart'),
    gameplayStop: () => void signal('gameplayStop'),
    happyTime: () => void signal('happyTime'),
    inviteLink: (params) => call('game.inviteLink', { params }).then((answer) => answer.url),
    params: () => call('game.params').then((answer) => answer.params),
  });
  const settingsApi = Object.freeze({
    get muted() {
      return settings.muted;
    },
    get locale() {
      return settings.locale;
    },
    get: () => call('settings.get').then(applySettings),
  });
  const ad = Object.freeze({ break: (kind) => call('ad.break', { kind }) });

  // --- 1.2: storage where the browser refuses it (docs/sdk/storage.md). ---
  // To the browser a game's frame is a third party on the play page: where third-party storage is
  // blocked, localStorage throws and indexedDB.open fails later through onerror.
  const nativeLocalStorage = Object.getOwnPropertyDescriptor(window, 'localStorage')?.get;
  const localStorageWorks = () => {
    try {
      const storage = nativeLocalStorage ? nativeLocalStorage.call(window) : window.localStorage;
      storage.setItem('playport.probe', '1');
      storage.removeItem('playport.probe');
      return true;
    } catch {
      return false;
    }
  };
  // oxlint-disable-next-line unicorn/consistent-function-scoping -- the script's outer scope is the page's global one
  const indexedDBWorks = () =>
    new Promise((resolve) => {
      try {
        const request = indexedDB.open('playport.probe');
        request.addEventListener('success', () => {
          request.result.close();
          indexedDB.deleteDatabase('playport.probe');
          resolve(true);
        });
        request.addEventListener('error', () => resolve(false));
      } catch {
        resolve(false);
      }
    });
  // The bridge keeps the game's localStorage in one key of the cloud save, below its 64 KB a value.
  const BRIDGE_KEY = 'playport.localStorage';
  const BRIDGE_LIMIT = 60 * 1024;
  // oxlint-disable-next-line unicorn/consistent-function-scoping -- the script's outer scope is the page's global one
  const bridgeLimitError = () => new DOMException('The cloud save keeps at most 60 KB of localStorage for a game.', 'QuotaExceededError');
  /** @type {Promise<{ flush: () => Promise<unknown> } | null> | null} */
  let bridge = null;
  function installBridge() {
    bridge ??= (async () => {
      if (localStorageWorks()) return null;
      const saved = await call('data.get', { key: BRIDGE_KEY }).then((answer) => answer.value);
      const items = new Map(saved && typeof saved === 'object' ? Object.entries(saved).filter((entry) => typeof entry[1] === 'string') : []);
      const encoded = () => JSON.stringify(Object.fromEntries(items));
      /** @type {number | null} */
      let timer = null;
      let saving = Promise.resolve();
      const save = () => {
        if (timer !== null) clearTimeout(timer);
        timer = null;
        const value = JSON.parse(encoded());
        saving = saving.catch(() => undefined).then(() => call('data.set', { key: BRIDGE_KEY, value }));
        return saving;
      };
      // Writes are grouped: a burst of setItem calls is one request.
      const changed = () => {
        if (timer !== null) clearTimeout(timer);
        timer = setTimeout(() => save().catch((error) => console.warn('Playport: the cloud save did not keep localStorage:', error.code)), 500);
      };
      const storage = {
        getItem: (key) => items.get(String(key)) ?? null,
        setItem(key, value) {
          const name = String(key);
          const before = items.get(name);
          items.set(name, String(value));
          if (new TextEncoder().encode(encoded()).length > BRIDGE_LIMIT) {
            if (before === undefined) items.delete(name);
            else items.set(name, before);
            throw bridgeLimitError();
          }
          changed();
        },
        removeItem(key) {
          if (items.delete(String(key))) changed();
        },
        clear() {
          if (items.size === 0) return;
          items.clear();
          changed();
        },
        key: (index) => [...items.keys()][index] ?? null,
        get length() {
          return items.size;
        },
      };
      Object.defineProperty(window, 'localStorage', { configurable: true, enumerable: true, get: () => storage });
      // What is waiting goes before the page does.
      const leave = () => timer !== null && save().catch(() => undefined);
      addEventListener('pagehide', leave);
      document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && leave());
      return { flush: () => (timer === null ? saving : save()) };
    })();
    bridge.catch(() => (bridge = null));
    return bridge.then((installed) => ({ bridged: installed !== null }));
  }
  const storageApi = Object.freeze({
    /** Whether the frame has storage of its own: { localStorage, indexedDB, bridged }. */
    available: async () => ({ localStorage: localStorageWorks(), indexedDB: await indexedDBWorks(), bridged: (await bridge?.catch(() => null)) != null }),
    /**
     * Asks the browser for the frame's own storage (the Storage Access API); call it from a click
     * or a key press. Resolves { granted, localStorage, indexedDB }: use the storage it gives.
     */
    async requestAccess() {
      const refused = { granted: false, localStorage: null, indexedDB: null };
      if (typeof document.requestStorageAccess !== 'function') return refused;
      try {
        // The form with storage types (Chrome 125) is newer than TypeScript's DOM types.
        const withTypes = /** @type {{ requestStorageAccess(types: object): Promise<{ localStorage?: Storage, indexedDB?: IDBFactory } | undefined> }} */ (
          /** @type {unknown} */ (document)
        );
        const handle = await withTypes.requestStorageAccess({ localStorage: true, indexedDB: true });
        return {
          granted: true,
          localStorage: handle?.localStorage ?? (localStorageWorks() ? (nativeLocalStorage?.call(window) ?? null) : null),
          indexedDB: handle?.indexedDB ?? ((await indexedDBWorks()) ? indexedDB : null),
        };
      } catch {
        return refused;
      }
    },
    /**
     * Where localStorage is refused, puts a localStorage of the same shape in its place, kept in
     * the player's cloud save; resolves { bridged } once it holds what was saved. Call it before
     * the engine starts.
     */
    bridge: installBridge,
    /** Resolves once the cloud save holds the bridged localStorage as it is now (at once without the bridge). */
    flush: async () => {
      const installed = await bridge?.catch(() => null);
      if (installed) await installed.flush();
    },
  });

  window.Playport = Object.freeze({
    version: '1.2.0',
    /** The frame's own storage where the browser refuses it: a check, the Storage Access API, and a bridge to the cloud save. */
    storage: storageApi,
    /** Moments of the game (loading, gameplay, a happy moment) and invite links: docs/game-sdk.md, "Game". */
    game,
    /** The player's sound and language on the portal; `Playport.on('settings', fn)` for changes. */
    settings: settingsApi,
    /** Ad breaks: `ad.break('midgame' | 'rewarded')` resolves { status }; 'pause' and 'resume' events around it. */
    ad,
    PlayportError,
    /** The player (a guest or a member) and a 10-minute token for the game's own backend. */
    login: () => call('login'),
    /** The game's items with their prices, and which the player owns. */
    getConfig: () => call('getConfig'),
    /** Buys an item: resolves { status: 'paid' | 'cancelled' | 'declined', orderId, sku } once the purchase is over; rejects when it cannot be made (account_not_secured, …). */
    pay: ({ sku }) => call('pay', { sku }),
    /** The player's cloud save for this game: JSON values by key (64 KB a value, 256 KB a game). */
    data: Object.freeze({
      get: (key) => call('data.get', { key }).then((answer) => answer.value),
      set: (key, value) => call('data.set', { key, value }),
      remove: (key) => call('data.remove', { key }),
    }),
    /**
     * Loading: tell the play page how far a large game has loaded (0 to 1), which it shows as a
     * progress bar, and when it is ready to play, which hides the loading screen. Nothing is answered.
     */
    loading: Object.freeze({
      progress(fraction) {
        const value = Number(fraction);
        if (window.parent !== window && Number.isFinite(value))
          window.parent.postMessage({ type: 'playport:loading', progress: Math.min(1, Math.max(0, value)) }, portalOrigin);
      },
      done() {
        if (window.parent !== window) window.parent.postMessage({ type: 'playport:game-loaded' }, portalOrigin);
      },
    }),
    /** Events: 'purchase' ({ orderId, sku }) once for each paid order, also one paid while the game was closed; 'auth' as auth.onChange; 'settings' ({ muted, locale }); 'pause' and 'resume' ({ reason: 'ad' }) around an ad break. An unknown name throws unknown_event. */
    on,
    // --- Accounts (SDK 1.1) ---
    auth: Object.freeze({
      /** Asks a guest to sign in or create an account: resolves { status: 'signed_in', token, expiresAt, user } or { status: 'cancelled' }. */
      prompt: () => call('auth.prompt'),
      /** The player changed (a sign-in anywhere in the portal, a sign-out): listener({ token, expiresAt, user }). Returns the unsubscribe. */
      onChange: (listener) => on('auth', listener),
    }),
    // --- Items (SDK 1.1) ---
    items: Object.freeze({
      /** The player's consumables of this game: [{ sku, name, quantity }]. */
      list: () => call('items.list'),
      /** Uses up quantity (1–1000, default 1) of a consumable once per idempotencyKey: resolves { sku, consumed, remaining }. */
      consume: (sku, { quantity = 1, idempotencyKey = newKey() } = {}) => call('items.consume', { sku, quantity, idempotencyKey }),
    }),
    // Leaderboards (1.1; docs/game-sdk.md, "Leaderboards"): the player's best per period is kept.
    leaderboard: Object.freeze({
      submit: (board, score) => call('leaderboard.submit', { board, score }),
      top: (board, options) => call('leaderboard.top', { board, ...options }),
      around: (board, options) => call('leaderboard.around', { board, ...options }),
    }),
    // Achievements (1.1; docs/game-sdk.md, "Achievements"): unlocked once per player.
    achievements: Object.freeze({
      unlock: (id) => call('achievements.unlock', { id }),
      list: () => call('achievements.list'),
    }),
  });
})();
