import { describe, expect, it } from 'vitest';
import { ConfirmStore } from './confirm-store.ts';

describe('confirm dialog', () => {
  it('resolves true only on confirm', async () => {
    const store = new ConfirmStore();
    const answer = store.ask({ message: 'Unbind Google?', type: 'warning', confirmButton: 'Unbind' });
    expect(store.snapshot()).toMatchObject({ message: 'Unbind Google?', type: 'warning', confirmButton: 'Unbind' });
    store.answer(true);
    await expect(answer).resolves.toBe(true);
    expect(store.snapshot()).toBeNull();
  });

  it('resolves false on cancel or dismissal', async () => {
    const store = new ConfirmStore();
    const answer = store.ask({ message: 'Sure?' });
    store.answer(false);
    await expect(answer).resolves.toBe(false);
  });

  it('a new question answers the open one with false', async () => {
    const store = new ConfirmStore();
    const first = store.ask({ message: 'First?' });
    const second = store.ask({ message: 'Second?' });
    await expect(first).resolves.toBe(false);
    expect(store.snapshot()?.message).toBe('Second?');
    store.answer(true);
    await expect(second).resolves.toBe(true);
  });

  it('answering with nothing open does nothing', () => {
    const store = new ConfirmStore();
    store.answer(true);
    expect(store.snapshot()).toBeNull();
  });
});
