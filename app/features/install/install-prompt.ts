import { track } from '../../lib/track.ts';

/** Chromium's install offer (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

type Listener = () => void;

/**
 * The browser's install offer, kept from the moment it fires (often before the page hydrates)
 * until it is used. An install that happened sends the PWA-install tracking event (spec section 3).
 */
class InstallPrompt {
  #event: BeforeInstallPromptEvent | null = null;
  readonly #listeners = new Set<Listener>();

  listen(target: Window): void {
    target.addEventListener('beforeinstallprompt', (event) => {
      // Keep the browser's own mini-bar away: the header offers it instead.
      event.preventDefault();
      this.#set(event as BeforeInstallPromptEvent);
    });
    target.addEventListener('appinstalled', () => {
      this.#set(null);
      track('pwa-install', {});
    });
  }

  available(): boolean {
    return this.#event !== null;
  }

  /** Shows the browser's install dialog; answers whether the person accepted. The offer is used up either way. */
  async install(): Promise<boolean> {
    const event = this.#event;
    if (!event) return false;
    this.#set(null);
    await event.prompt();
    return (await event.userChoice).outcome === 'accepted';
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(event: BeforeInstallPromptEvent | null): void {
    this.#event = event;
    for (const listener of this.#listeners) listener();
  }
}

export const installPrompt = new InstallPrompt();
