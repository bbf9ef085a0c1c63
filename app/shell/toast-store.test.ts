import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOADING_TOAST_DURATION_MS, MAX_TOASTS, TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS, ToastStore } from './toast-store.ts';

describe('toast queue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses the spec constants: 3000 ms, loading 2000 ms, at most 5, removal after 200 ms', () => {
    expect([TOAST_DURATION_MS, LOADING_TOAST_DURATION_MS, MAX_TOASTS, TOAST_REMOVE_DELAY_MS]).toEqual([3000, 2000, 5, 200]);
  });

  it('adds open toasts with the default duration, loading ones with the loading duration', () => {
    const store = new ToastStore();
    const a = store.add({ title: 'Saved', color: 'success' });
    const b = store.add({ title: 'Loading', loading: true });
    const c = store.add({ title: 'Sticky', duration: 0 });
    expect(store.snapshot()).toEqual([
      { id: a, open: true, title: 'Saved', color: 'success', duration: 3000 },
      { id: b, open: true, title: 'Loading', loading: true, duration: 2000 },
      { id: c, open: true, title: 'Sticky', duration: 0 },
    ]);
  });

  it('keeps the newest five', () => {
    const store = new ToastStore();
    for (let i = 1; i <= 7; i++) store.add({ title: `t${i}` });
    expect(store.snapshot().map((t) => t.title)).toEqual(['t3', 't4', 't5', 't6', 't7']);
  });

  it('closing sets open to false, then removes the toast after 200 ms', () => {
    const store = new ToastStore();
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.snapshot().length));
    const id = store.add({ title: 'Bye' });
    store.add({ title: 'Stays' });
    store.close(id);
    expect(store.snapshot().find((t) => t.id === id)?.open).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(store.snapshot()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(store.snapshot().map((t) => t.title)).toEqual(['Stays']);
    expect(seen).toEqual([1, 2, 2, 1]);
  });

  it('closing twice schedules one removal; remove drops at once', () => {
    const store = new ToastStore();
    const id = store.add({ title: 'x' });
    const other = store.add({ title: 'y' });
    store.close(id);
    store.close(id);
    expect(vi.getTimerCount()).toBe(1);
    store.remove(other);
    expect(store.snapshot().map((t) => t.title)).toEqual(['x']);
  });

  it('gives every toast its own id and snapshots are new arrays on change only', () => {
    const store = new ToastStore();
    const first = store.snapshot();
    expect(store.snapshot()).toBe(first);
    const a = store.add({ title: 'a' });
    const b = store.add({ title: 'b' });
    expect(a).not.toBe(b);
    expect(store.snapshot()).not.toBe(first);
  });
});
