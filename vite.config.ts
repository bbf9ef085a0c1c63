import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

/**
 * The libraries every page runs (React, React Router, i18next and the few primitives of the page
 * shell) in one chunk instead of a dozen: each file is a request, and on a phone's connection the
 * requests, not the bytes, decide when the page can respond (docs/performance.md).
 */
const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-router|@react-router|i18next|react-i18next|clsx|tailwind-merge|class-variance-authority|@radix-ui[\\/]react-(slot|compose-refs))[\\/]/;

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }] } } },
  },
  server: { hmr: { port: 24678 } },
});
