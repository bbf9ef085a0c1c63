import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

/**
 * The libraries every page runs (React, React Router and the few primitives of the page
 * shell) in one chunk instead of a dozen: each file is a request, and on a phone's connection the
 * requests, not the bytes, decide when the page can respond (docs/performance.md).
 */
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|scheduler|react-router|@react-router|clsx|class-variance-authority|@radix-ui[\\/]react-(slot|compose-refs))[\\/]/;

/**
 * The shared infrastructure of every page (shell, primitives, helpers, i18n, middleware, common) in
 * one chunk too, for the same reason; features keep their own chunks. Kept out, as they would
 * otherwise load with every page: the API schemas and json-depth (they would bring zod), the widgets that load
 * on demand (decision 066) and the helpers of forms, prices, sizes, lists and scrolling tables that
 * only the Studio, the Console and forms use (the forms' fields and error handling in app/ui among them).
 */
const SHELL = /[\\/](app[\\/](shell|ui|lib|i18n|middleware)|common)[\\/]/;
const ON_DEMAND =
  /[\\/](language-menu|user-menu-panel|user-drawer-panel|login-dialog|login-list|toaster|confirm-dialog|dialog|drawer|popover|dropdown-menu|alert-dialog|radio-cards|segmented|segment-choice|section-nav|[a-z-]+-form|[a-z-]+\.schema|[a-z-]+\.server|proof-of-work|device-fingerprint|offline-game|service-worker|phone-numbers|money|byte-sizes|json-depth|scroll-region|list-format|workspace-items|form-field|form-errors|use-pending-action|failure-message)\.tsx?$/;
const isShellModule = (id: string) => SHELL.test(id) && !ON_DEMAND.test(id) && !/[\\/]common[\\/]api[\\/]/.test(id);

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'framework', test: FRAMEWORK },
            { name: 'shell', test: isShellModule },
          ],
        },
      },
    },
  },
  server: { hmr: { port: 24678 } },
});
