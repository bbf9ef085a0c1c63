import { useSyncExternalStore } from 'react';

/** The confirm dialog of spec section 3. */
export interface ConfirmOptions {
  message: string;
  title?: string;
  confirmButton?: string;
  cancelButton?: string;
  color?: 'primary' | 'warning' | 'error';
  icon?: 'info' | 'warning' | 'error' | 'question';
  /** "warning" styles the dialog as a caution (unbinding an account, for example). */
  type?: 'info' | 'warning';
}

export interface ConfirmRequest extends ConfirmOptions {
  id: number;
}

type Listener = () => void;

/** One dialog at a time: asking again answers the open question with false. */
export class ConfirmStore {
  #current: ConfirmRequest | null = null;
  #resolve: ((value: boolean) => void) | null = null;
  #nextId = 1;
  readonly #listeners = new Set<Listener>();

  subscribe = (listener: Listener) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  snapshot = () => this.#current;

  /** Opens the dialog; resolves true only when the confirm button is pressed, otherwise false. */
  ask(options: ConfirmOptions): Promise<boolean> {
    this.answer(false);
    return new Promise<boolean>((resolve) => {
      this.#current = { ...options, id: this.#nextId++ };
      this.#resolve = resolve;
      this.#emit();
    });
  }

  /** Closes the open dialog with an answer (cancel, Escape and clicking outside answer false). */
  answer(confirmed: boolean): void {
    const resolve = this.#resolve;
    if (!resolve) return;
    this.#resolve = null;
    this.#current = null;
    this.#emit();
    resolve(confirmed);
  }

  #emit() {
    for (const listener of this.#listeners) listener();
  }
}

/** The page's one confirm dialog. */
export const confirmDialog = new ConfirmStore();

/** Asks the visitor to confirm; true only on confirm. */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return confirmDialog.ask(options);
}

export function useConfirmRequest(): ConfirmRequest | null {
  return useSyncExternalStore(confirmDialog.subscribe, confirmDialog.snapshot, () => null);
}
