import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { installPrompt } from './features/install/install-prompt.ts';
import { registerServiceWorker } from './features/install/service-worker-registration.ts';
import { loadLocaleMessages } from './i18n/i18n.ts';
import { localeOfPath } from '#common/locales.ts';

// The install offer may fire before hydration: it is kept from the first script on.
installPrompt.listen(window);
registerServiceWorker();

// The page's texts come from /{locale}/messages.json (preloaded in <head>); hydrating waits for them.
void loadLocaleMessages(localeOfPath(window.location.pathname)).then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
