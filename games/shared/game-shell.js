// The shell every demo game loads first: its language, its texts, storage that survives a
// sandbox without storage, and the "loaded" message the play page waits for. Sign-in, cloud
// saves and purchases are the game SDK's (sdk/v1/playport.js, docs/game-sdk.md), which the games
// that use them load next to this shell.
window.GameShell = (() => {
  // The base address, not location: a game the play page rebuilds offline has its address as base.
  const zh = /^zh/i.test(new URL(document.baseURI).searchParams.get('locale') || '');
  document.documentElement.lang = zh ? 'zh-CN' : 'en';
  const memory = {};
  return {
    /** Whether the portal asked for Chinese (`?locale=zh-CN`). */
    zh,
    /** Fills every [data-t] element and the document title from the texts of the page's language. */
    applyTexts(texts) {
      document.querySelectorAll('[data-t]').forEach((element) => (element.textContent = texts[element.dataset.t]));
      document.title = texts.title;
      // Every game's head hides its body until this (an inline style, so it holds before any stylesheet has
      // loaded): the texts, and the styles that arrive before them, then move nothing (a layout shift).
      document.documentElement.dataset.texts = '';
    },
    /** localStorage, or memory where the sandbox gives the game none (its origin is opaque). */
    store: {
      get(key) {
        try {
          return localStorage.getItem(key);
        } catch {
          return memory[key] ?? null;
        }
      },
      set(key, value) {
        try {
          localStorage.setItem(key, value);
        } catch {
          memory[key] = String(value);
        }
      },
    },
    /**
     * Call once the game is set up: a tap gives the game the keyboard, and once the page has
     * loaded the play page is told (its loading cover goes) and the game takes the focus.
     */
    start(name) {
      addEventListener('pointerdown', () => window.focus());
      const loaded = () => {
        window.focus();
        if (window.parent !== window) window.parent.postMessage({ type: 'playport:game-loaded', name }, '*');
      };
      if (document.readyState === 'complete') loaded();
      else addEventListener('load', loaded);
    },
  };
})();
