import { useSyncExternalStore } from 'react';

/** A toast of spec section 3. */
export interface Toast {
  id: number;
  open: boolean;
  title: string;
  description?: string;
  color?: 'neutral' | 'success' | 'error' | 'warning' | 'info';
  icon?: string;
  /** A loading toast shows a spinner and closes after LOADING_TOAST_DURATION_MS unless told otherwise. */
  loading?: boolean;
  /** Milliseconds before it closes by itself; 0 keeps it until closed. */
  duration: number;
}

/** Spec section 9: 3000 ms, loading toasts 2000 ms, at most 5 at once, removed 200 ms after closing. */
export const TOAST_DURATION_MS = 3000;
export const LOADING_TOAST_DURATION_MS = 2000;
export const MAX_TOASTS = 5;
export const TOAST_REMOVE_DELAY_MS = 200;

type Listener = () => void;

/** The toast queue: newest kept when more than five are shown. */
export class ToastStore {
  #toasts: Toast[] = [];
  #nextId = 1;
  readonly #listeners = new Set<Listener>();

  subscribe = (listener: Listener) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  snapshot = () => this.#toasts;

  add(input: Omit<Toast, 'id' | 'open' | 'duration'> & { duration?: number }): number {
    const id = this.#nextId++;
    const toast: Toast = { ...input, id, open: true, duration: input.duration ?? (input.loading ? LOADING_TOAST_DURATION_MS : TOAST_DURATION_MS) };
    this.#toasts = [...this.#toasts, toast].slice(-MAX_TOASTS);
    this.#emit();
    return id;
  }

  /** Closing sets open to false, then removes the toast after 200 ms (the exit animation). */
  close(id: number): void {
    if (!this.#toasts.some((t) => t.id === id && t.open)) return;
    this.#toasts = this.#toasts.map((t) => (t.id === id ? { ...t, open: false } : t));
    this.#emit();
    setTimeout(() => this.remove(id), TOAST_REMOVE_DELAY_MS);
  }

  remove(id: number): void {
    this.#toasts = this.#toasts.filter((t) => t.id !== id);
    this.#emit();
  }

  #emit() {
    for (const listener of this.#listeners) listener();
  }
}

/** The page's one toast queue. */
export const toast = new ToastStore();

const EMPTY: Toast[] = [];

export function useToasts(): Toast[] {
  return useSyncExternalStore(toast.subscribe, toast.snapshot, () => EMPTY);
}
